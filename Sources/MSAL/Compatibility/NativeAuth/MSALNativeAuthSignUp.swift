import Foundation

/// Receives the outcome of ``MSALNativeAuthPublicClientApplication/signUp(parameters:delegate:)``.
@MainActor public protocol SignUpStartDelegate: AnyObject, Sendable {
    func onSignUpStartError(error: SignUpStartError)
    func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    )
    func onSignUpAttributesInvalid(attributeNames: [String])
}

extension SignUpStartDelegate {
    public func onSignUpAttributesInvalid(attributeNames: [String]) {
        onSignUpStartError(
            error: SignUpStartError(
                type: .generalError, message: NativeDelegates.notImplemented("onSignUpAttributesInvalid")))
    }
}

/// Receives what follows a sign-up step: more input needed, or done.
@MainActor public protocol SignUpNextStepDelegate: AnyObject, Sendable {
    func onSignUpAttributesRequired(
        attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
    func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState)
    func onSignUpCompleted(newState: SignInAfterSignUpState)
    /// Reports a step that cannot be handled as an error of the step's kind.
    func onSignUpStepNotHandled(_ message: String)
}

/// Receives the outcome of ``SignUpCodeRequiredState/submitCode(code:delegate:)``.
@MainActor public protocol SignUpVerifyCodeDelegate: SignUpNextStepDelegate {
    func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?)
}

extension SignUpVerifyCodeDelegate {
    public func onSignUpStepNotHandled(_ message: String) {
        onSignUpVerifyCodeError(
            error: VerifyCodeError(type: .generalError, MSALError.internal(.unexpected, message)), newState: nil)
    }
}

/// Receives the outcome of ``SignUpPasswordRequiredState/submitPassword(password:delegate:)``.
@MainActor public protocol SignUpPasswordRequiredDelegate: SignUpNextStepDelegate {
    func onSignUpPasswordRequiredError(error: PasswordRequiredError, newState: SignUpPasswordRequiredState?)
}

extension SignUpPasswordRequiredDelegate {
    public func onSignUpStepNotHandled(_ message: String) {
        onSignUpPasswordRequiredError(
            error: PasswordRequiredError(type: .generalError, message: message), newState: nil)
    }
}

/// Receives the outcome of ``SignUpAttributesRequiredState/submitAttributes(attributes:delegate:)``.
@MainActor public protocol SignUpAttributesRequiredDelegate: SignUpNextStepDelegate {
    func onSignUpAttributesRequiredError(error: AttributesRequiredError)
    func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState)
}

extension SignUpAttributesRequiredDelegate {
    public func onSignUpStepNotHandled(_ message: String) {
        onSignUpAttributesRequiredError(error: AttributesRequiredError(message: message))
    }
}

extension SignUpNextStepDelegate {
    public func onSignUpAttributesRequired(
        attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState
    ) {
        onSignUpStepNotHandled(NativeDelegates.notImplemented("onSignUpAttributesRequired"))
    }
    public func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState) {
        onSignUpStepNotHandled(NativeDelegates.notImplemented("onSignUpPasswordRequired"))
    }
    public func onSignUpCompleted(newState: SignInAfterSignUpState) {
        onSignUpStepNotHandled(NativeDelegates.notImplemented("onSignUpCompleted"))
    }
}

/// Receives the outcome of ``SignUpCodeRequiredState/resendCode(delegate:)``.
@MainActor public protocol SignUpResendCodeDelegate: AnyObject, Sendable {
    func onSignUpResendCodeError(error: ResendCodeError, newState: SignUpCodeRequiredState?)
    func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    )
}

extension SignUpCodeRequiredState {
    /// Submits the code; the outcome goes to `delegate` on the main actor.
    public func submitCode(code: String, delegate: any SignUpVerifyCodeDelegate) {
        NativeDelegates.run {
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
        NativeDelegates.run {
            do {
                guard case .codeRequired(let state, let delivery) = try await resendCode() else {
                    return await delegate.onSignUpResendCodeError(error: ResendCodeError(), newState: nil)
                }
                await delegate.onSignUpResendCodeCodeRequired(
                    newState: state, sentTo: delivery.sentTo,
                    channelTargetType: MSALNativeAuthChannelType(delivery.channel),
                    codeLength: delivery.codeLength)
            } catch {
                await delegate.onSignUpResendCodeError(error: ResendCodeError(error), newState: nil)
            }
        }
    }
}

extension SignUpPasswordRequiredState {
    /// Submits the password; the outcome goes to `delegate` on the main actor.
    public func submitPassword(password: String, delegate: any SignUpPasswordRequiredDelegate) {
        NativeDelegates.run {
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
    /// Submits attributes (values are sent as strings); the outcome goes to `delegate` on the main actor.
    public func submitAttributes(attributes: [String: Any], delegate: any SignUpAttributesRequiredDelegate) {
        let values = attributes.mapValues { "\($0)" }
        NativeDelegates.run {
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
        default: await delegate.onSignUpStepNotHandled("The sign-up answered with a step this delegate cannot take.")
        }
    }
}
