import Foundation

/// Receives the outcome of ``MSALNativeAuthPublicClientApplication/signUp(parameters:delegate:)``.
@MainActor public protocol SignUpStartDelegate: AnyObject, Sendable {
    /// The sign-up could not start; `error.type` says why.
    func onSignUpStartError(error: SignUpStartError)
    /// A one-time code was sent to `sentTo` to verify the address; submit it through `newState`.
    func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    )
    /// The server refused these attributes.
    func onSignUpAttributesInvalid(attributeNames: [String])
}

extension SignUpStartDelegate {
    /// Default: reports that the method is not implemented, as a general error to ``onSignUpStartError(error:)``.
    public func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        NativeDelegates.lacks("onSignUpCodeRequired")
    }
    /// Default: reports that the method is not implemented, as a general error to ``onSignUpStartError(error:)``.
    public func onSignUpAttributesInvalid(attributeNames: [String]) {
        NativeDelegates.lacks("onSignUpAttributesInvalid")
    }
}

/// Receives what follows a sign-up step: more input needed, or done. A method the app does not implement is
/// reported as a general error to the error method of the step's delegate.
@MainActor public protocol SignUpNextStepDelegate: AnyObject, Sendable {
    /// The tenant needs these user attributes; submit them through `newState`.
    func onSignUpAttributesRequired(
        attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
    /// The tenant needs a password; submit it through `newState`.
    func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState)
    /// The user is signed up; `newState` signs them in without asking again.
    func onSignUpCompleted(newState: SignInAfterSignUpState)
}

extension SignUpNextStepDelegate {
    /// Default: reports that the method is not implemented, as a general error to the step's error method.
    public func onSignUpAttributesRequired(
        attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState
    ) {
        NativeDelegates.lacks("onSignUpAttributesRequired")
    }
    /// Default: reports that the method is not implemented, as a general error to the step's error method.
    public func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState) {
        NativeDelegates.lacks("onSignUpPasswordRequired")
    }
    /// Default: reports that the method is not implemented, as a general error to the step's error method.
    public func onSignUpCompleted(newState: SignInAfterSignUpState) {
        NativeDelegates.lacks("onSignUpCompleted")
    }
}

/// Receives the outcome of ``SignUpCodeRequiredState/submitCode(code:delegate:)``.
@MainActor public protocol SignUpVerifyCodeDelegate: SignUpNextStepDelegate {
    /// The code was refused; `newState`, when given, takes another try.
    func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?)
}

/// Receives the outcome of ``SignUpPasswordRequiredState/submitPassword(password:delegate:)``.
@MainActor public protocol SignUpPasswordRequiredDelegate: SignUpNextStepDelegate {
    /// The password was refused; `newState`, when given, takes another try.
    func onSignUpPasswordRequiredError(error: PasswordRequiredError, newState: SignUpPasswordRequiredState?)
}

/// Receives the outcome of ``SignUpAttributesRequiredState/submitAttributes(attributes:delegate:)``.
@MainActor public protocol SignUpAttributesRequiredDelegate: SignUpNextStepDelegate {
    /// The attributes could not be submitted.
    func onSignUpAttributesRequiredError(error: AttributesRequiredError)
    /// The server refused these attributes; `newState` takes corrected ones.
    func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState)
}

extension SignUpAttributesRequiredDelegate {
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onSignUpAttributesRequiredError(error:)``.
    public func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState) {
        NativeDelegates.lacks("onSignUpAttributesInvalid")
    }
}

/// Receives the outcome of ``SignUpCodeRequiredState/resendCode(delegate:)``.
@MainActor public protocol SignUpResendCodeDelegate: AnyObject, Sendable {
    /// No new code could be sent; `newState`, when given, still takes the earlier one.
    func onSignUpResendCodeError(error: ResendCodeError, newState: SignUpCodeRequiredState?)
    /// A new code was sent to `sentTo`; submit it through `newState`.
    func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    )
}

extension SignUpResendCodeDelegate {
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onSignUpResendCodeError(error:newState:)``.
    public func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        NativeDelegates.lacks("onSignUpResendCodeCodeRequired")
    }
}

extension SignUpCodeRequiredState {
    /// Submits the code; the outcome goes to `delegate` on the main actor.
    public func submitCode(code: String, delegate: any SignUpVerifyCodeDelegate) {
        let fail: NativeDelegates.Failure = {
            delegate.onSignUpVerifyCodeError(
                error: VerifyCodeError(type: .generalError, MSALError.internal(.unexpected, $0)), newState: nil)
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                let result = try await submitCode(code)
                if case .invalidCode(let state) = result {
                    return await delegate.onSignUpVerifyCodeError(
                        error: VerifyCodeError(type: .invalidCode), newState: state)
                }
                await NativeDelegates.signUpNext(result, delegate)
            } catch {
                await delegate.onSignUpVerifyCodeError(
                    error: VerifyCodeError(type: .generalError, error), newState: nil)
            }
        }
    }

    /// Sends a new code; the outcome goes to `delegate` on the main actor.
    public func resendCode(delegate: any SignUpResendCodeDelegate) {
        NativeDelegates.resendCode(
            {
                guard case .codeRequired(let state, let delivery) = try await resendCode() else { return nil }
                return (state, delivery)
            },
            failed: { delegate.onSignUpResendCodeError(error: $0, newState: nil) },
            sent: {
                delegate.onSignUpResendCodeCodeRequired(newState: $0, sentTo: $1, channelTargetType: $2, codeLength: $3)
            })
    }
}

extension SignUpPasswordRequiredState {
    /// Submits the password; the outcome goes to `delegate` on the main actor.
    public func submitPassword(password: String, delegate: any SignUpPasswordRequiredDelegate) {
        let fail: NativeDelegates.Failure = {
            delegate.onSignUpPasswordRequiredError(
                error: PasswordRequiredError(type: .generalError, message: $0), newState: nil)
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                let result = try await submitPassword(password)
                if case .invalidPassword(_, let state) = result {
                    return await delegate.onSignUpPasswordRequiredError(
                        error: PasswordRequiredError(type: .invalidPassword), newState: state)
                }
                await NativeDelegates.signUpNext(result, delegate)
            } catch {
                await delegate.onSignUpPasswordRequiredError(
                    error: PasswordRequiredError(type: .generalError, error), newState: nil)
            }
        }
    }
}

extension SignUpAttributesRequiredState {
    /// Submits attributes (strings, numbers and booleans, each sent as its JSON type); the outcome goes to
    /// `delegate` on the main actor.
    public func submitAttributes(attributes: [String: Any], delegate: any SignUpAttributesRequiredDelegate) {
        let values = attributes.mapValues(AttributeValue.init(any:))
        let fail: NativeDelegates.Failure = {
            delegate.onSignUpAttributesRequiredError(error: AttributesRequiredError(message: $0))
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                let result = try await submitAttributes(values)
                if case .attributesInvalid(let names, let state?) = result {
                    return await delegate.onSignUpAttributesInvalid(attributeNames: names, newState: state)
                }
                await NativeDelegates.signUpNext(result, delegate)
            } catch {
                await delegate.onSignUpAttributesRequiredError(error: AttributesRequiredError(error))
            }
        }
    }
}

extension NativeDelegates {
    /// Reports a sign-up start's result to its delegate.
    static func signUpStart(_ result: SignUpResult, _ delegate: any SignUpStartDelegate) async {
        switch result {
        case .codeRequired(let state, let delivery):
            await delegate.onSignUpCodeRequired(
                newState: state, sentTo: delivery.sentTo,
                channelTargetType: MSALNativeAuthChannelType(delivery.channel), codeLength: delivery.codeLength)
        case .attributesInvalid(let names, _): await delegate.onSignUpAttributesInvalid(attributeNames: names)
        case .userAlreadyExists: await delegate.onSignUpStartError(error: SignUpStartError(type: .userAlreadyExists))
        case .invalidPassword: await delegate.onSignUpStartError(error: SignUpStartError(type: .invalidPassword))
        case .browserRequired: await delegate.onSignUpStartError(error: SignUpStartError(type: .browserRequired))
        default: await delegate.onSignUpStartError(error: SignUpStartError(type: .generalError))
        }
    }

    /// Reports what follows a sign-up step.
    static func signUpNext(_ result: SignUpResult, _ delegate: any SignUpNextStepDelegate) async {
        switch result {
        case .completed(let state): await delegate.onSignUpCompleted(newState: state)
        case .passwordRequired(let state): await delegate.onSignUpPasswordRequired(newState: state)
        case .attributesRequired(let state, let attributes):
            await delegate.onSignUpAttributesRequired(attributes: attributes, newState: state)
        default: await NativeDelegates.fail("The sign-up answered with a step this delegate cannot take.")
        }
    }
}
