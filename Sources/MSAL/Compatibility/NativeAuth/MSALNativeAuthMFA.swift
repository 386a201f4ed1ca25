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
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onMFARequestChallengeError(error:newState:)``.
    public func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        NativeDelegates.lacks("onMFARequestChallengeVerificationRequired")
    }
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onMFARequestChallengeError(error:newState:)``.
    public func onMFARequestChallengeSelectionRequired(authMethods: [MSALAuthMethod], newState: MFARequiredState) {
        NativeDelegates.lacks("onMFARequestChallengeSelectionRequired")
    }
}

/// Receives the outcome of submitting an MFA code.
@MainActor public protocol MFASubmitChallengeDelegate: SignInCompletionDelegate {
    /// The code was refused; `newState`, when given, takes another try.
    func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?)
}

/// Receives the outcome of offering a contact for a new strong authentication method.
/// The contact may turn out already verified, which signs the user in (``SignInCompletionDelegate``).
@MainActor public protocol RegisterStrongAuthChallengeDelegate: SignInCompletionDelegate {
    /// The contact was refused; `newState`, when given, takes another.
    func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?)
    /// A code was sent to the contact.
    func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult)
}

extension RegisterStrongAuthChallengeDelegate {
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onRegisterStrongAuthChallengeError(error:newState:)``.
    public func onRegisterStrongAuthVerificationRequired(
        result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult
    ) {
        NativeDelegates.lacks("onRegisterStrongAuthVerificationRequired")
    }
}

/// Receives the outcome of submitting the code sent to a new contact.
@MainActor public protocol RegisterStrongAuthSubmitChallengeDelegate: SignInCompletionDelegate {
    /// The code was refused; `newState`, when given, takes another try.
    func onRegisterStrongAuthSubmitChallengeError(
        error: RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?)
}

extension AwaitingMFAState {
    /// Sends a code through `authMethod`; the outcome goes to `delegate` on the main actor.
    public func requestChallenge(authMethod: MSALAuthMethod, delegate: any MFARequestChallengeDelegate) {
        let method = authMethod.method
        NativeDelegates.requestMFA({ try await requestChallenge(authMethod: method) }, delegate)
    }
}

extension MFARequiredState {
    /// Sends a new code through `authMethod`; the outcome goes to `delegate` on the main actor.
    public func requestChallenge(authMethod: MSALAuthMethod, delegate: any MFARequestChallengeDelegate) {
        let method = authMethod.method
        NativeDelegates.requestMFA({ try await requestChallenge(authMethod: method) }, delegate)
    }

    /// Submits the code; the outcome goes to `delegate` on the main actor.
    public func submitChallenge(challenge: String, delegate: any MFASubmitChallengeDelegate) {
        let fail: NativeDelegates.Failure = {
            delegate.onMFASubmitChallengeError(
                error: MFASubmitChallengeError(MSALError.internal(.unexpected, $0)), newState: nil)
        }
        NativeDelegates.run(failingWith: fail) {
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
        NativeDelegates.challengeRegistration(
            { try await challengeAuthMethod(method, verificationContact: contact) }, delegate)
    }
}

extension RegisterStrongAuthVerificationRequiredState {
    /// Offers a contact again; the outcome goes to `delegate` on the main actor.
    public func challengeAuthMethod(
        parameters: MSALNativeAuthChallengeAuthMethodParameters, delegate: any RegisterStrongAuthChallengeDelegate
    ) {
        let (method, contact) = (parameters.authMethod.method, parameters.verificationContact)
        NativeDelegates.challengeRegistration(
            { try await challengeAuthMethod(method, verificationContact: contact) }, delegate)
    }

    /// Submits the code sent to the contact; the outcome goes to `delegate` on the main actor.
    public func submitChallenge(challenge: String, delegate: any RegisterStrongAuthSubmitChallengeDelegate) {
        let fail: NativeDelegates.Failure = {
            delegate.onRegisterStrongAuthSubmitChallengeError(
                error: RegisterStrongAuthSubmitChallengeError(MSALError.internal(.unexpected, $0)), newState: nil)
        }
        NativeDelegates.run(failingWith: fail) {
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
    /// Runs a request for an MFA code and reports its outcome to `delegate`.
    static func requestMFA(
        _ request: @escaping @Sendable () async throws -> MFARequestChallengeResult,
        _ delegate: any MFARequestChallengeDelegate
    ) {
        let fail: NativeDelegates.Failure = {
            delegate.onMFARequestChallengeError(error: MFARequestChallengeError(message: $0), newState: nil)
        }
        run(failingWith: fail) {
            await mfaRequested(request, delegate)
        }
    }

    /// Reports a request for an MFA code to its delegate.
    private static func mfaRequested(
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

    /// Runs the offer of a contact for a new strong authentication method and reports its outcome to `delegate`.
    static func challengeRegistration(
        _ request: @escaping @Sendable () async throws -> RegisterStrongAuthChallengeResult,
        _ delegate: any RegisterStrongAuthChallengeDelegate
    ) {
        let fail: NativeDelegates.Failure = {
            delegate.onRegisterStrongAuthChallengeError(
                error: RegisterStrongAuthChallengeError(message: $0), newState: nil)
        }
        run(failingWith: fail) {
            await registerChallenged(request, delegate)
        }
    }

    /// Reports an offered contact's outcome to its delegate.
    private static func registerChallenged(
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
