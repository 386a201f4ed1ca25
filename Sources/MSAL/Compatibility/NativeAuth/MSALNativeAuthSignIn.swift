import Foundation

/// Receives a finished sign-in: what every delegate whose step can end with the user signed in shares.
@MainActor public protocol SignInCompletionDelegate: AnyObject, Sendable {
    /// The user is signed in.
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

extension SignInCompletionDelegate {
    /// Default: reports that the method is not implemented, as a general error to the call's error method.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        NativeDelegates.lacks("onSignInCompleted")
    }
}

/// What a sign-in step may lead to besides its own outcomes: a second factor, or registering a strong
/// authentication method. Every sign-in delegate has these; an app that does not implement one is told through the
/// delegate's error method.
@MainActor public protocol SignInNextStepDelegate: SignInCompletionDelegate {
    /// The first factor passed; the user must now pass MFA with one of `authMethods` through `newState`.
    func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState)
    /// The user has no strong authentication method; they register one of `authMethods` through `newState`.
    func onSignInStrongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState)
}

extension SignInNextStepDelegate {
    /// Default: reports that the method is not implemented, as a general error to the call's error method.
    public func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState) {
        NativeDelegates.lacks("onSignInAwaitingMFA")
    }
    /// Default: reports that the method is not implemented, as a general error to the call's error method.
    public func onSignInStrongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState) {
        NativeDelegates.lacks("onSignInStrongAuthMethodRegistration")
    }
}

/// Receives the outcome of ``MSALNativeAuthPublicClientApplication/signIn(parameters:delegate:)``.
@MainActor public protocol SignInStartDelegate: SignInNextStepDelegate {
    /// The sign-in could not start; `error.type` says why.
    func onSignInStartError(error: SignInStartError)
    /// A one-time code was sent to `sentTo` by `channelTargetType`; submit it through `newState`.
    func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    )
    /// The user has a password: submit it through `newState`.
    func onSignInPasswordRequired(newState: SignInPasswordRequiredState)
}

extension SignInStartDelegate {
    /// Default: reports that the method is not implemented, as a general error to ``onSignInStartError(error:)``.
    public func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        NativeDelegates.lacks("onSignInCodeRequired")
    }
    /// Default: reports that the method is not implemented, as a general error to ``onSignInStartError(error:)``.
    public func onSignInPasswordRequired(newState: SignInPasswordRequiredState) {
        NativeDelegates.lacks("onSignInPasswordRequired")
    }
}

/// Receives the outcome of ``SignInPasswordRequiredState/submitPassword(password:delegate:)``.
@MainActor public protocol SignInPasswordRequiredDelegate: SignInNextStepDelegate {
    /// The password was refused; `newState`, when given, takes another try.
    func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?)
}

/// Receives the outcome of ``SignInCodeRequiredState/submitCode(code:delegate:)``.
@MainActor public protocol SignInVerifyCodeDelegate: SignInNextStepDelegate {
    /// The code was refused; `newState`, when given, takes another try.
    func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?)
}

/// Receives the outcome of ``SignInCodeRequiredState/resendCode(delegate:)``.
@MainActor public protocol SignInResendCodeDelegate: AnyObject, Sendable {
    /// No new code could be sent; `newState`, when given, still takes the earlier one.
    func onSignInResendCodeError(error: ResendCodeError, newState: SignInCodeRequiredState?)
    /// A new code was sent to `sentTo`; submit it through `newState`.
    func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    )
}

extension SignInResendCodeDelegate {
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onSignInResendCodeError(error:newState:)``.
    public func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        NativeDelegates.lacks("onSignInResendCodeCodeRequired")
    }
}

/// Receives the outcome of signing in after a sign-up.
@MainActor public protocol SignInAfterSignUpDelegate: SignInNextStepDelegate {
    /// Signing in after the sign-up failed.
    func onSignInAfterSignUpError(error: SignInAfterSignUpError)
}

/// Receives the outcome of signing in after a password reset.
@MainActor public protocol SignInAfterResetPasswordDelegate: SignInNextStepDelegate {
    /// Signing in after the password reset failed.
    func onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError)
}

extension SignInPasswordRequiredState {
    /// Submits the password; the outcome goes to `delegate` on the main actor.
    public func submitPassword(password: String, delegate: any SignInPasswordRequiredDelegate) {
        let fail: NativeDelegates.Failure = {
            delegate.onSignInPasswordRequiredError(
                error: PasswordRequiredError(type: .generalError, message: $0), newState: nil)
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                let result = try await submitPassword(password)
                if await NativeDelegates.signInNext(result, delegate) { return }
                switch result {
                case .invalidPassword(let state):
                    await delegate.onSignInPasswordRequiredError(
                        error: PasswordRequiredError(type: .invalidPassword), newState: state)
                case .browserRequired(let reason):
                    await delegate.onSignInPasswordRequiredError(
                        error: PasswordRequiredError(type: .browserRequired, message: reason), newState: nil)
                default:
                    await delegate.onSignInPasswordRequiredError(
                        error: PasswordRequiredError(type: .generalError), newState: nil)
                }
            } catch {
                await delegate.onSignInPasswordRequiredError(
                    error: PasswordRequiredError(type: .generalError, error), newState: nil)
            }
        }
    }
}

extension SignInCodeRequiredState {
    /// Submits the code; the outcome goes to `delegate` on the main actor.
    public func submitCode(code: String, delegate: any SignInVerifyCodeDelegate) {
        let fail: NativeDelegates.Failure = {
            delegate.onSignInVerifyCodeError(
                error: VerifyCodeError(type: .generalError, MSALError.internal(.unexpected, $0)), newState: nil)
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                let result = try await submitCode(code)
                if await NativeDelegates.signInNext(result, delegate) { return }
                switch result {
                case .invalidCode(let state):
                    await delegate.onSignInVerifyCodeError(error: VerifyCodeError(type: .invalidCode), newState: state)
                case .browserRequired:
                    await delegate.onSignInVerifyCodeError(
                        error: VerifyCodeError(type: .browserRequired), newState: nil)
                default:
                    await delegate.onSignInVerifyCodeError(error: VerifyCodeError(type: .generalError), newState: nil)
                }
            } catch {
                await delegate.onSignInVerifyCodeError(
                    error: VerifyCodeError(type: .generalError, error), newState: nil)
            }
        }
    }

    /// Sends a new code; the outcome goes to `delegate` on the main actor.
    public func resendCode(delegate: any SignInResendCodeDelegate) {
        NativeDelegates.resendCode(
            {
                guard case .codeRequired(let state, let delivery) = try await resendCode() else { return nil }
                return (state, delivery)
            },
            failed: { delegate.onSignInResendCodeError(error: $0, newState: nil) },
            sent: {
                delegate.onSignInResendCodeCodeRequired(newState: $0, sentTo: $1, channelTargetType: $2, codeLength: $3)
            })
    }
}

extension NativeDelegates {
    /// Reports a sign-in start's result to its delegate.
    static func signInStart(_ result: SignInResult, _ delegate: any SignInStartDelegate) async {
        if await signInNext(result, delegate) { return }
        switch result {
        case .completed, .mfaRequired, .registrationRequired: break  // reported by signInNext
        case .codeRequired(let state, let delivery):
            await delegate.onSignInCodeRequired(
                newState: state, sentTo: delivery.sentTo,
                channelTargetType: MSALNativeAuthChannelType(delivery.channel), codeLength: delivery.codeLength)
        case .passwordRequired(let state): await delegate.onSignInPasswordRequired(newState: state)
        case .invalidPassword, .invalidCode:
            await delegate.onSignInStartError(error: SignInStartError(type: .invalidCredentials))
        case .userNotFound: await delegate.onSignInStartError(error: SignInStartError(type: .userNotFound))
        case .browserRequired: await delegate.onSignInStartError(error: SignInStartError(type: .browserRequired))
        }
    }

    /// Reports a sign-in after sign-up or reset: the outcomes every sign-in step shares, or the error `fail` makes
    /// (told whether the browser is needed).
    static func signInAfter(
        _ result: SignInResult, _ delegate: any SignInNextStepDelegate, fail: @MainActor (Bool) -> Void
    ) async {
        if await signInNext(result, delegate) { return }
        if case .browserRequired = result { await fail(true) } else { await fail(false) }
    }

    /// Reports the outcomes every sign-in step shares (signed in, a second factor, a method to register) and
    /// answers true; false for any other result, which the step reports through its own delegate methods.
    static func signInNext(_ result: SignInResult, _ delegate: any SignInNextStepDelegate) async -> Bool {
        switch result {
        case .completed(let user): await delegate.onSignInCompleted(result: MSALNativeAuthUserAccountResult(user))
        case .mfaRequired(let state, let methods):
            await delegate.onSignInAwaitingMFA(authMethods: methods.map(MSALAuthMethod.init), newState: state)
        case .registrationRequired(let state, let methods):
            await delegate.onSignInStrongAuthMethodRegistration(
                authMethods: methods.map(MSALAuthMethod.init), newState: state)
        default: return false
        }
        return true
    }
}

extension SignInAfterSignUpState {
    /// Signs the new user in; the outcome goes to `delegate` on the main actor.
    public func signIn(scopes: [String]? = nil, correlationId: UUID? = nil, delegate: any SignInAfterSignUpDelegate) {
        let parameters = MSALNativeAuthSignInAfterSignUpParameters()
        parameters.scopes = scopes
        signIn(parameters: parameters, delegate: delegate)
    }

    /// Signs the new user in as `parameters` say; the outcome goes to `delegate` on the main actor.
    public func signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters, delegate: any SignInAfterSignUpDelegate) {
        let (scopes, claims) = (parameters.scopes ?? [], parameters.claimsRequest?.jsonString())
        let fail: NativeDelegates.Failure = {
            delegate.onSignInAfterSignUpError(error: SignInAfterSignUpError(message: $0))
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                await NativeDelegates.signInAfter(try await signIn(scopes: scopes, claims: claims), delegate) {
                    delegate.onSignInAfterSignUpError(error: SignInAfterSignUpError(browserRequired: $0))
                }
            } catch {
                await delegate.onSignInAfterSignUpError(error: SignInAfterSignUpError(error))
            }
        }
    }
}

extension SignInAfterResetPasswordState {
    /// Signs the user in with the new password; the outcome goes to `delegate` on the main actor.
    public func signIn(
        scopes: [String]? = nil, correlationId: UUID? = nil, delegate: any SignInAfterResetPasswordDelegate
    ) {
        let parameters = MSALNativeAuthSignInAfterResetPasswordParameters()
        parameters.scopes = scopes
        signIn(parameters: parameters, delegate: delegate)
    }

    /// Signs the user in as `parameters` say; the outcome goes to `delegate` on the main actor.
    public func signIn(
        parameters: MSALNativeAuthSignInAfterResetPasswordParameters, delegate: any SignInAfterResetPasswordDelegate
    ) {
        let (scopes, claims) = (parameters.scopes ?? [], parameters.claimsRequest?.jsonString())
        let fail: NativeDelegates.Failure = {
            delegate.onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError(message: $0))
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                await NativeDelegates.signInAfter(try await signIn(scopes: scopes, claims: claims), delegate) {
                    delegate.onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError(browserRequired: $0))
                }
            } catch {
                await delegate.onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError(error))
            }
        }
    }
}
