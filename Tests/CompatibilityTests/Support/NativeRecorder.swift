import Foundation
import MSAL

/// A native-auth delegate that records every callback, in order, for a test to take one by one.
@MainActor
final class NativeRecorder: SignInStartDelegate, SignUpStartDelegate, SignUpVerifyCodeDelegate,
    SignUpPasswordRequiredDelegate,
    SignUpAttributesRequiredDelegate, SignInAfterSignUpDelegate, ResetPasswordStartDelegate, SignInResendCodeDelegate,
    SignUpResendCodeDelegate, ResetPasswordResendCodeDelegate
{
    enum Event: Sendable {
        case signedIn(MSALNativeAuthUserAccountResult)
        case signInError(SignInStartError)
        case signUpError(SignUpStartError)
        case signUpCode(SignUpCodeRequiredState, sentTo: String)
        case verifyCodeError(VerifyCodeError, SignUpCodeRequiredState?)
        case signUpPassword(SignUpPasswordRequiredState)
        case passwordError(PasswordRequiredError, SignUpPasswordRequiredState?)
        case attributesRequired([String], SignUpAttributesRequiredState)
        case signUpCompleted(SignInAfterSignUpState)
        case resetError(ResetPasswordStartError)
        case signInCode(SignInCodeRequiredState)
        case resetCode(ResetPasswordCodeRequiredState)
        /// A new code was sent (`flow`: sign-in, sign-up or reset).
        case codeResent(flow: String, sentTo: String, channel: String, codeLength: Int)
        case other(String)

        var signInError: SignInStartError? { if case .signInError(let e) = self { e } else { nil } }
        var signUpError: SignUpStartError? { if case .signUpError(let e) = self { e } else { nil } }
    }

    private var events: [Event] = []
    private var waiter: CheckedContinuation<Event, Never>?

    /// The next callback, waiting for it if it has not come yet.
    func next() async throws -> Event {
        if !events.isEmpty { return events.removeFirst() }
        return await withCheckedContinuation { waiter = $0 }
    }

    private func record(_ event: Event) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: event)
        } else {
            events.append(event)
        }
    }

    func onSignInStartError(error: SignInStartError) { record(.signInError(error)) }
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) { record(.signedIn(result)) }
    func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        record(.signInCode(newState))
    }
    func onSignUpStartError(error: SignUpStartError) { record(.signUpError(error)) }
    func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        record(.signUpCode(newState, sentTo: sentTo))
    }
    func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?) {
        record(.verifyCodeError(error, newState))
    }
    func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState) { record(.signUpPassword(newState)) }
    func onSignUpPasswordRequiredError(error: PasswordRequiredError, newState: SignUpPasswordRequiredState?) {
        record(.passwordError(error, newState))
    }
    func onSignUpAttributesRequired(
        attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState
    ) {
        record(.attributesRequired(attributes.map(\.name), newState))
    }
    func onSignUpAttributesRequiredError(error: AttributesRequiredError) {
        record(.other(error.errorDescription ?? ""))
    }
    func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState) {
        record(.other("invalid"))
    }
    func onSignUpCompleted(newState: SignInAfterSignUpState) { record(.signUpCompleted(newState)) }
    func onSignInAfterSignUpError(error: SignInAfterSignUpError) { record(.other(error.errorDescription ?? "")) }
    func onResetPasswordStartError(error: ResetPasswordStartError) { record(.resetError(error)) }
    func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType,
        codeLength: Int
    ) {
        record(.resetCode(newState))
    }
    func onSignInResendCodeError(error: ResendCodeError, newState: SignInCodeRequiredState?) {
        record(.other(error.errorDescription ?? ""))
    }
    func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        record(.codeResent(flow: "sign-in", sentTo: sentTo, channel: channelTargetType.value, codeLength: codeLength))
    }
    func onSignUpResendCodeError(error: ResendCodeError, newState: SignUpCodeRequiredState?) {
        record(.other(error.errorDescription ?? ""))
    }
    func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        record(.codeResent(flow: "sign-up", sentTo: sentTo, channel: channelTargetType.value, codeLength: codeLength))
    }
    func onResetPasswordResendCodeError(error: ResendCodeError, newState: ResetPasswordCodeRequiredState?) {
        record(.other(error.errorDescription ?? ""))
    }
    func onResetPasswordResendCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType,
        codeLength: Int
    ) {
        record(.codeResent(flow: "reset", sentTo: sentTo, channel: channelTargetType.value, codeLength: codeLength))
    }
}

/// A delegate implementing only the required method, as an app that forgot the code path would.
@MainActor final class MinimalDelegate: SignInStartDelegate {
    private var waiter: CheckedContinuation<String, Never>?
    private var received: String?

    func onSignInStartError(error: SignInStartError) {
        received = error.errorDescription
        waiter?.resume(returning: error.errorDescription ?? "")
        waiter = nil
    }

    func error() async throws -> String {
        if let received { return received }
        return await withCheckedContinuation { waiter = $0 }
    }
}
