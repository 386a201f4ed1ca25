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

/// Receives the outcome of ``ResetPasswordCodeRequiredState/submitCode(code:delegate:)``.
@MainActor public protocol ResetPasswordVerifyCodeDelegate: AnyObject, Sendable {
    /// The code was refused; `newState`, when given, takes another try.
    func onResetPasswordVerifyCodeError(error: VerifyCodeError, newState: ResetPasswordCodeRequiredState?)
    /// The code is verified: submit the new password through `newState`.
    func onPasswordRequired(newState: ResetPasswordRequiredState)
}

/// Receives the outcome of ``ResetPasswordRequiredState/submitPassword(password:delegate:)``.
@MainActor public protocol ResetPasswordRequiredDelegate: AnyObject, Sendable {
    /// The new password was refused; `newState`, when given, takes another try.
    func onResetPasswordRequiredError(error: PasswordRequiredError, newState: ResetPasswordRequiredState?)
    /// The password is reset; `newState` signs the user in without asking again.
    func onResetPasswordCompleted(newState: SignInAfterResetPasswordState)
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

extension ResetPasswordCodeRequiredState {
    /// Submits the code; the outcome goes to `delegate` on the main actor.
    public func submitCode(code: String, delegate: any ResetPasswordVerifyCodeDelegate) {
        NativeDelegates.run {
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
        NativeDelegates.run {
            do {
                guard case .codeRequired(let state, let delivery) = try await resendCode() else {
                    return await delegate.onResetPasswordResendCodeError(error: ResendCodeError(), newState: nil)
                }
                await delegate.onResetPasswordResendCodeRequired(
                    newState: state, sentTo: delivery.sentTo,
                    channelTargetType: MSALNativeAuthChannelType(delivery.channel),
                    codeLength: delivery.codeLength)
            } catch {
                await delegate.onResetPasswordResendCodeError(error: ResendCodeError(error), newState: nil)
            }
        }
    }
}

extension ResetPasswordRequiredState {
    /// Submits the new password and waits until it is applied; the outcome goes to `delegate` on the main actor.
    public func submitPassword(password: String, delegate: any ResetPasswordRequiredDelegate) {
        NativeDelegates.run {
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
