import Foundation
import MSAL

/// One object adopting every native-auth delegate protocol, as the samples' view controllers do, with only the
/// methods MSAL for iOS requires: the error methods. It records which error method heard what, in order.
@MainActor
final class EveryDelegate: SignInStartDelegate, SignInPasswordRequiredDelegate, SignInVerifyCodeDelegate,
    SignInResendCodeDelegate, SignInAfterSignUpDelegate, SignInAfterResetPasswordDelegate, SignUpStartDelegate,
    SignUpVerifyCodeDelegate, SignUpPasswordRequiredDelegate, SignUpAttributesRequiredDelegate,
    SignUpResendCodeDelegate, ResetPasswordStartDelegate, ResetPasswordVerifyCodeDelegate,
    ResetPasswordRequiredDelegate, ResetPasswordResendCodeDelegate, CredentialsDelegate,
    MFARequestChallengeDelegate, MFASubmitChallengeDelegate, RegisterStrongAuthChallengeDelegate,
    RegisterStrongAuthSubmitChallengeDelegate
{
    /// An error method that was called, and the error's description.
    struct Heard: Equatable, Sendable {
        let method: String
        let message: String
    }

    private var heard: [Heard] = []
    private var waiter: CheckedContinuation<Heard, Never>?

    /// The next error method called, waiting for it if it has not come yet.
    func next() async -> Heard {
        if !heard.isEmpty { return heard.removeFirst() }
        return await withCheckedContinuation { waiter = $0 }
    }

    private func record(_ method: String, _ error: MSALNativeAuthError) {
        let entry = Heard(method: method, message: error.errorDescription ?? "")
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: entry)
        } else {
            heard.append(entry)
        }
    }

    func onSignInStartError(error: SignInStartError) { record("onSignInStartError", error) }
    func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?) {
        record("onSignInPasswordRequiredError", error)
    }
    func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?) {
        record("onSignInVerifyCodeError", error)
    }
    func onSignInResendCodeError(error: ResendCodeError, newState: SignInCodeRequiredState?) {
        record("onSignInResendCodeError", error)
    }
    func onSignInAfterSignUpError(error: SignInAfterSignUpError) { record("onSignInAfterSignUpError", error) }
    func onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError) {
        record("onSignInAfterResetPasswordError", error)
    }
    func onSignUpStartError(error: SignUpStartError) { record("onSignUpStartError", error) }
    func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?) {
        record("onSignUpVerifyCodeError", error)
    }
    func onSignUpPasswordRequiredError(error: PasswordRequiredError, newState: SignUpPasswordRequiredState?) {
        record("onSignUpPasswordRequiredError", error)
    }
    func onSignUpAttributesRequiredError(error: AttributesRequiredError) {
        record("onSignUpAttributesRequiredError", error)
    }
    func onSignUpResendCodeError(error: ResendCodeError, newState: SignUpCodeRequiredState?) {
        record("onSignUpResendCodeError", error)
    }
    func onResetPasswordStartError(error: ResetPasswordStartError) { record("onResetPasswordStartError", error) }
    func onResetPasswordVerifyCodeError(error: VerifyCodeError, newState: ResetPasswordCodeRequiredState?) {
        record("onResetPasswordVerifyCodeError", error)
    }
    func onResetPasswordRequiredError(error: PasswordRequiredError, newState: ResetPasswordRequiredState?) {
        record("onResetPasswordRequiredError", error)
    }
    func onResetPasswordResendCodeError(error: ResendCodeError, newState: ResetPasswordCodeRequiredState?) {
        record("onResetPasswordResendCodeError", error)
    }
    func onAccessTokenRetrieveError(error: RetrieveAccessTokenError) { record("onAccessTokenRetrieveError", error) }
    func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?) {
        record("onMFARequestChallengeError", error)
    }
    func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?) {
        record("onMFASubmitChallengeError", error)
    }
    func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?)
    {
        record("onRegisterStrongAuthChallengeError", error)
    }
    func onRegisterStrongAuthSubmitChallengeError(
        error: RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?
    ) {
        record("onRegisterStrongAuthSubmitChallengeError", error)
    }
}
