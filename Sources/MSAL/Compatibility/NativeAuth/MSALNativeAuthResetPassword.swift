import Foundation

/// Receives the outcome of ``MSALNativeAuthPublicClientApplication/resetPassword(parameters:delegate:)``.
@MainActor public protocol ResetPasswordStartDelegate: AnyObject, Sendable {
    /// The password reset could not start; `error.type` says why.
    func onResetPasswordStartError(error: ResetPasswordStartError)
    /// A one-time code was sent to `sentTo`; submit it through `newState`.
    func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType,
        codeLength: Int)
}

extension ResetPasswordStartDelegate {
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onResetPasswordStartError(error:)``.
    public func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType,
        codeLength: Int
    ) {
        NativeDelegates.lacks("onResetPasswordCodeRequired")
    }
}

/// Receives the outcome of ``ResetPasswordCodeRequiredState/submitCode(code:delegate:)``.
@MainActor public protocol ResetPasswordVerifyCodeDelegate: AnyObject, Sendable {
    /// The code was refused; `newState`, when given, takes another try.
    func onResetPasswordVerifyCodeError(error: VerifyCodeError, newState: ResetPasswordCodeRequiredState?)
    /// The code is verified: submit the new password through `newState`.
    func onPasswordRequired(newState: ResetPasswordRequiredState)
}

extension ResetPasswordVerifyCodeDelegate {
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onResetPasswordVerifyCodeError(error:newState:)``.
    public func onPasswordRequired(newState: ResetPasswordRequiredState) {
        NativeDelegates.lacks("onPasswordRequired")
    }
}

/// Receives the outcome of ``ResetPasswordRequiredState/submitPassword(password:delegate:)``.
@MainActor public protocol ResetPasswordRequiredDelegate: AnyObject, Sendable {
    /// The new password was refused; `newState`, when given, takes another try.
    func onResetPasswordRequiredError(error: PasswordRequiredError, newState: ResetPasswordRequiredState?)
    /// The password is reset; `newState` signs the user in without asking again.
    func onResetPasswordCompleted(newState: SignInAfterResetPasswordState)
}

extension ResetPasswordRequiredDelegate {
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onResetPasswordRequiredError(error:newState:)``.
    public func onResetPasswordCompleted(newState: SignInAfterResetPasswordState) {
        NativeDelegates.lacks("onResetPasswordCompleted")
    }
}

/// Receives the outcome of ``ResetPasswordCodeRequiredState/resendCode(delegate:)``.
@MainActor public protocol ResetPasswordResendCodeDelegate: AnyObject, Sendable {
    /// No new code could be sent; `newState`, when given, still takes the earlier one.
    func onResetPasswordResendCodeError(error: ResendCodeError, newState: ResetPasswordCodeRequiredState?)
    /// A new code was sent to `sentTo`; submit it through `newState`.
    func onResetPasswordResendCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType,
        codeLength: Int)
}

extension ResetPasswordResendCodeDelegate {
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onResetPasswordResendCodeError(error:newState:)``.
    public func onResetPasswordResendCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType,
        codeLength: Int
    ) {
        NativeDelegates.lacks("onResetPasswordResendCodeRequired")
    }
}

extension ResetPasswordCodeRequiredState {
    /// Submits the code; the outcome goes to `delegate` on the main actor.
    public func submitCode(code: String, delegate: any ResetPasswordVerifyCodeDelegate) {
        let fail: NativeDelegates.Failure = {
            delegate.onResetPasswordVerifyCodeError(
                error: VerifyCodeError(type: .generalError, MSALError.internal(.unexpected, $0)), newState: nil)
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                switch try await submitCode(code) {
                case .newPasswordRequired(let state): await delegate.onPasswordRequired(newState: state)
                case .invalidCode(let state):
                    await delegate.onResetPasswordVerifyCodeError(
                        error: VerifyCodeError(type: .invalidCode), newState: state)
                default:
                    await delegate.onResetPasswordVerifyCodeError(
                        error: VerifyCodeError(type: .generalError), newState: nil)
                }
            } catch {
                await delegate.onResetPasswordVerifyCodeError(
                    error: VerifyCodeError(type: .generalError, error), newState: nil)
            }
        }
    }

    /// Sends a new code; the outcome goes to `delegate` on the main actor.
    public func resendCode(delegate: any ResetPasswordResendCodeDelegate) {
        NativeDelegates.resendCode(
            {
                guard case .codeRequired(let state, let delivery) = try await resendCode() else { return nil }
                return (state, delivery)
            },
            failed: { delegate.onResetPasswordResendCodeError(error: $0, newState: nil) },
            sent: {
                delegate.onResetPasswordResendCodeRequired(
                    newState: $0, sentTo: $1, channelTargetType: $2, codeLength: $3)
            })
    }
}

extension ResetPasswordRequiredState {
    /// Submits the new password and waits until it is applied; the outcome goes to `delegate` on the main actor.
    public func submitPassword(password: String, delegate: any ResetPasswordRequiredDelegate) {
        let fail: NativeDelegates.Failure = {
            delegate.onResetPasswordRequiredError(
                error: PasswordRequiredError(type: .generalError, message: $0), newState: nil)
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                switch try await submitPassword(password) {
                case .completed(let state): await delegate.onResetPasswordCompleted(newState: state)
                case .invalidPassword(_, let state):
                    await delegate.onResetPasswordRequiredError(
                        error: PasswordRequiredError(type: .invalidPassword), newState: state)
                default:
                    await delegate.onResetPasswordRequiredError(
                        error: PasswordRequiredError(type: .generalError), newState: nil)
                }
            } catch {
                await delegate.onResetPasswordRequiredError(
                    error: PasswordRequiredError(type: .generalError, error), newState: nil)
            }
        }
    }
}

extension NativeDelegates {
    /// Reports a password reset start's result to its delegate.
    static func resetStart(_ result: ResetPasswordResult, _ delegate: any ResetPasswordStartDelegate) async {
        switch result {
        case .codeRequired(let state, let delivery):
            await delegate.onResetPasswordCodeRequired(
                newState: state, sentTo: delivery.sentTo,
                channelTargetType: MSALNativeAuthChannelType(delivery.channel), codeLength: delivery.codeLength)
        case .userNotFound:
            await delegate.onResetPasswordStartError(error: ResetPasswordStartError(type: .userNotFound))
        case .userHasNoPassword:
            await delegate.onResetPasswordStartError(error: ResetPasswordStartError(type: .userDoesNotHavePassword))
        case .browserRequired:
            await delegate.onResetPasswordStartError(error: ResetPasswordStartError(type: .browserRequired))
        default: await delegate.onResetPasswordStartError(error: ResetPasswordStartError(type: .generalError))
        }
    }
}
