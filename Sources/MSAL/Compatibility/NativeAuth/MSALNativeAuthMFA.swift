import Foundation

/// A strong authentication method (MSAL's `MSALAuthMethod`).
public final class MSALAuthMethod: Sendable {
    /// The method's id.
    public let id: String
    /// How it is proven: `oob`.
    public let challengeType: String
    /// Where codes go.
    public let channelTargetType: MSALNativeAuthChannelType
    /// The masked contact.
    public let loginHint: String?
    let method: AuthMethod

    init(_ method: AuthMethod) {
        self.method = method
        id = method.id
        challengeType = method.challengeType
        channelTargetType = MSALNativeAuthChannelType(method.channel)
        loginHint = method.loginHint
    }
}

/// What ``RegisterStrongAuthState/challengeAuthMethod(parameters:delegate:)`` takes: the kind of method and the
/// contact to prove (MSAL's `MSALNativeAuthChallengeAuthMethodParameters`).
public final class MSALNativeAuthChallengeAuthMethodParameters: Sendable {
    /// The kind of method, from the list the delegate received.
    public let authMethod: MSALAuthMethod
    /// The email address or phone number to register.
    public let verificationContact: String

    /// Parameters for `authMethod` and `verificationContact`.
    public init(authMethod: MSALAuthMethod, verificationContact: String) {
        self.authMethod = authMethod
        self.verificationContact = verificationContact
    }
}

/// Where the code for a new contact went, and the state to submit it (MSAL's
/// `MSALNativeAuthRegisterStrongAuthVerificationRequiredResult`).
public final class MSALNativeAuthRegisterStrongAuthVerificationRequiredResult: Sendable {
    /// Submits the code.
    public let newState: RegisterStrongAuthVerificationRequiredState
    /// The contact the code went to.
    public let sentTo: String
    /// `email` or `sms`.
    public let channelTargetType: MSALNativeAuthChannelType
    /// How many digits the code has.
    public let codeLength: Int

    init(_ state: RegisterStrongAuthVerificationRequiredState, _ delivery: CodeDelivery) {
        newState = state
        sentTo = delivery.sentTo
        channelTargetType = MSALNativeAuthChannelType(delivery.channel)
        codeLength = delivery.codeLength
    }
}

/// Receives the outcome of asking for an MFA code.
@MainActor public protocol MFARequestChallengeDelegate: AnyObject, Sendable {
    /// No code was sent; `newState`, when given, takes another try.
    func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?)
    /// A code was sent to `sentTo`; submit it through `newState`.
    func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    /// The user must choose a method first.
    func onMFARequestChallengeSelectionRequired(authMethods: [MSALAuthMethod], newState: MFARequiredState)
}

extension MFARequestChallengeDelegate {
    /// Default: reports that the method is not implemented, as a general error.
    public func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onMFARequestChallengeError(
            error: MFARequestChallengeError(
                message: NativeDelegates.notImplemented("onMFARequestChallengeVerificationRequired")),
            newState: nil)
    }
    /// Default: reports that the method is not implemented, as a general error.
    public func onMFARequestChallengeSelectionRequired(authMethods: [MSALAuthMethod], newState: MFARequiredState) {
        onMFARequestChallengeError(
            error: MFARequestChallengeError(
                message: NativeDelegates.notImplemented("onMFARequestChallengeSelectionRequired")),
            newState: nil)
    }
}

/// Receives the outcome of submitting an MFA code.
@MainActor public protocol MFASubmitChallengeDelegate: AnyObject, Sendable {
    /// The code was refused; `newState`, when given, takes another try.
    func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?)
    /// The user is signed in.
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

/// Receives the outcome of offering a contact for a new strong authentication method.
@MainActor public protocol RegisterStrongAuthChallengeDelegate: AnyObject, Sendable {
    /// The contact was refused; `newState`, when given, takes another.
    func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?)
    /// A code was sent to the contact.
    func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult)
    /// The contact was already verified: the user is signed in.
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

extension RegisterStrongAuthChallengeDelegate {
    /// Default: reports that the method is not implemented, as a general error.
    public func onRegisterStrongAuthVerificationRequired(
        result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult
    ) {
        onRegisterStrongAuthChallengeError(
            error: RegisterStrongAuthChallengeError(
                message: NativeDelegates.notImplemented("onRegisterStrongAuthVerificationRequired")),
            newState: nil)
    }
    /// Default: reports that the method is not implemented, as a general error.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onRegisterStrongAuthChallengeError(
            error: RegisterStrongAuthChallengeError(message: NativeDelegates.notImplemented("onSignInCompleted")),
            newState: nil)
    }
}

/// Receives the outcome of submitting the code sent to a new contact.
@MainActor public protocol RegisterStrongAuthSubmitChallengeDelegate: AnyObject, Sendable {
    /// The code was refused; `newState`, when given, takes another try.
    func onRegisterStrongAuthSubmitChallengeError(
        error: RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?)
    /// The user is signed in.
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

extension AwaitingMFAState {
    /// Sends a code through `authMethod`; the outcome goes to `delegate` on the main actor.
    public func requestChallenge(authMethod: MSALAuthMethod, delegate: any MFARequestChallengeDelegate) {
        let method = authMethod.method
        NativeDelegates.run {
            await NativeDelegates.mfaRequested(
                { try await requestChallenge(authMethod: method) }, delegate)
        }
    }
}

extension MFARequiredState {
    /// Sends a new code through `authMethod`; the outcome goes to `delegate` on the main actor.
    public func requestChallenge(authMethod: MSALAuthMethod, delegate: any MFARequestChallengeDelegate) {
        let method = authMethod.method
        NativeDelegates.run {
            await NativeDelegates.mfaRequested({ try await requestChallenge(authMethod: method) }, delegate)
        }
    }

    /// Submits the code; the outcome goes to `delegate` on the main actor.
    public func submitChallenge(challenge: String, delegate: any MFASubmitChallengeDelegate) {
        NativeDelegates.run {
            do {
                switch try await submitChallenge(challenge) {
                case .completed(let user):
                    await delegate.onSignInCompleted(result: MSALNativeAuthUserAccountResult(user))
                case .invalidCode(let state):
                    await delegate.onMFASubmitChallengeError(
                        error: MFASubmitChallengeError(invalidChallenge: true), newState: state)
                case .browserRequired:
                    await delegate.onMFASubmitChallengeError(
                        error: MFASubmitChallengeError(browserRequired: true), newState: nil)
                }
            } catch {
                await delegate.onMFASubmitChallengeError(error: MFASubmitChallengeError(error), newState: nil)
            }
        }
    }
}

extension RegisterStrongAuthState {
    /// Sends a code to the contact; the outcome goes to `delegate` on the main actor.
    public func challengeAuthMethod(
        parameters: MSALNativeAuthChallengeAuthMethodParameters, delegate: any RegisterStrongAuthChallengeDelegate
    ) {
        let (method, contact) = (parameters.authMethod.method, parameters.verificationContact)
        NativeDelegates.run {
            await NativeDelegates.registerChallenged(
                { try await challengeAuthMethod(method, verificationContact: contact) }, delegate)
        }
    }
}

extension RegisterStrongAuthVerificationRequiredState {
    /// Offers a contact again; the outcome goes to `delegate` on the main actor.
    public func challengeAuthMethod(
        parameters: MSALNativeAuthChallengeAuthMethodParameters, delegate: any RegisterStrongAuthChallengeDelegate
    ) {
        let (method, contact) = (parameters.authMethod.method, parameters.verificationContact)
        NativeDelegates.run {
            await NativeDelegates.registerChallenged(
                { try await challengeAuthMethod(method, verificationContact: contact) }, delegate)
        }
    }

    /// Submits the code sent to the contact; the outcome goes to `delegate` on the main actor.
    public func submitChallenge(challenge: String, delegate: any RegisterStrongAuthSubmitChallengeDelegate) {
        NativeDelegates.run {
            do {
                switch try await submitChallenge(challenge) {
                case .completed(let user):
                    await delegate.onSignInCompleted(result: MSALNativeAuthUserAccountResult(user))
                case .invalidCode(let state):
                    await delegate.onRegisterStrongAuthSubmitChallengeError(
                        error: RegisterStrongAuthSubmitChallengeError(invalidChallenge: true), newState: state)
                case .browserRequired:
                    await delegate.onRegisterStrongAuthSubmitChallengeError(
                        error: RegisterStrongAuthSubmitChallengeError(browserRequired: true), newState: nil)
                }
            } catch {
                await delegate.onRegisterStrongAuthSubmitChallengeError(
                    error: RegisterStrongAuthSubmitChallengeError(error), newState: nil)
            }
        }
    }
}

extension NativeDelegates {
    /// Reports a request for an MFA code to its delegate.
    static func mfaRequested(
        _ request: () async throws -> MFARequestChallengeResult, _ delegate: any MFARequestChallengeDelegate
    ) async {
        do {
            switch try await request() {
            case .verificationRequired(let state, let delivery):
                await delegate.onMFARequestChallengeVerificationRequired(
                    newState: state, sentTo: delivery.sentTo,
                    channelTargetType: MSALNativeAuthChannelType(delivery.channel), codeLength: delivery.codeLength)
            case .selectionRequired(let state, let methods):
                await delegate.onMFARequestChallengeSelectionRequired(
                    authMethods: methods.map(MSALAuthMethod.init), newState: state)
            case .browserRequired(let reason):
                await delegate.onMFARequestChallengeError(
                    error: MFARequestChallengeError(browserRequired: true, message: reason), newState: nil)
            }
        } catch {
            await delegate.onMFARequestChallengeError(error: MFARequestChallengeError(error), newState: nil)
        }
    }

    /// Reports an offered contact's outcome to its delegate.
    static func registerChallenged(
        _ request: () async throws -> RegisterStrongAuthChallengeResult,
        _ delegate: any RegisterStrongAuthChallengeDelegate
    ) async {
        do {
            switch try await request() {
            case .verificationRequired(let state, let delivery):
                await delegate.onRegisterStrongAuthVerificationRequired(
                    result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult(state, delivery))
            case .completed(let user):
                await delegate.onSignInCompleted(result: MSALNativeAuthUserAccountResult(user))
            case .invalidContact(let state):
                await delegate.onRegisterStrongAuthChallengeError(
                    error: RegisterStrongAuthChallengeError(invalidInput: true), newState: state)
            case .browserRequired:
                await delegate.onRegisterStrongAuthChallengeError(
                    error: RegisterStrongAuthChallengeError(browserRequired: true), newState: nil)
            }
        } catch {
            await delegate.onRegisterStrongAuthChallengeError(
                error: RegisterStrongAuthChallengeError(error), newState: nil)
        }
    }
}
