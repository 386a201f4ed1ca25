import Foundation
import MSAL

/// A sign-in screen written from MSAL for iOS 2.x's documentation for MFA and strong-method registration
/// ("Add MFA to an iOS app with native authentication"): the 2.x configuration with `capabilities`, the parameter
/// objects, `onSignInAwaitingMFA`/`onSignInStrongAuthMethodRegistration`, and the MFA and registration delegates.
/// Changed lines, marked `// Linux:`: UIKit, `@IBAction`, and the constants (the emulator's tenant).
@MainActor
final class MFAViewController: SignInStartDelegate, MFARequestChallengeDelegate,
    MFASubmitChallengeDelegate, RegisterStrongAuthChallengeDelegate, RegisterStrongAuthSubmitChallengeDelegate
{  // Linux: UIViewController is main-actor isolated; this class is too.
    var nativeAuth: MSALNativeAuthPublicClientApplication!
    var accountResult: MSALNativeAuthUserAccountResult?
    var mfaRequiredState: MFARequiredState?
    var registerStrongAuthState: RegisterStrongAuthState?
    var verificationRequiredState: RegisterStrongAuthVerificationRequiredState?
    var authMethods: [MSALAuthMethod] = []

    // Linux: console widgets instead of UIKit's.
    let console = Console()
    let resultTextView: ConsoleTextView
    let emailTextField = ConsoleTextField()
    let passwordTextField = ConsoleTextField()
    let codeTextField = ConsoleTextField()
    let contactTextField = ConsoleTextField()
    let correlationId = UUID()

    init(environment: TutorialEnvironment) throws {
        resultTextView = ConsoleTextView("loggingText", console)
        // Linux: the emulator's External ID tenant (config values).
        let authority = try MSALCIAMAuthority(
            url: URL(string: environment.authority("contosocustomers.onmicrosoft.com"))!)
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: environment.externalClientID, authority: authority, challengeTypes: [.OOB, .password])
        config.capabilities = [.mfaRequired, .registrationRequired]
        environment.configure(config)
        nativeAuth = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    func signInPressed(_: Any) {  // Linux: no @IBAction
        guard let email = emailTextField.text, let password = passwordTextField.text else {
            resultTextView.text = "Email or password not set"
            return
        }
        let parameters = MSALNativeAuthSignInParameters(username: email)
        parameters.password = password
        parameters.correlationId = correlationId
        parameters.claimsRequest = try? MSALClaimsRequest(jsonString: #"{"id_token":{"auth_time":{"essential":true}}}"#)
        nativeAuth.signIn(parameters: parameters, delegate: self)
    }

    /// Sends a code through the method at `index` of those the sign-in listed.
    func requestChallengePressed(methodAt index: Int) {
        mfaRequiredState?.requestChallenge(authMethod: authMethods[index], delegate: self)
    }

    func submitChallengePressed(_: Any) {
        guard let code = codeTextField.text else { return }
        mfaRequiredState?.submitChallenge(challenge: code, delegate: self)
    }

    func registerPressed(methodAt index: Int) {
        guard let contact = contactTextField.text else { return }
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(
            authMethod: authMethods[index], verificationContact: contact)
        if let verificationRequiredState {
            verificationRequiredState.challengeAuthMethod(parameters: parameters, delegate: self)
        } else {
            registerStrongAuthState?.challengeAuthMethod(parameters: parameters, delegate: self)
        }
    }

    func submitRegistrationCodePressed(_: Any) {
        guard let code = codeTextField.text else { return }
        verificationRequiredState?.submitChallenge(challenge: code, delegate: self)
    }

    // MARK: SignInStartDelegate

    func onSignInStartError(error: SignInStartError) {
        resultTextView.text = "Error signing in: \(error.errorDescription ?? "no description")"
    }

    func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState) {
        self.authMethods = authMethods
        resultTextView.text = "MFA required: \(authMethods.map(\.channelTargetType.value).joined(separator: ", "))"
        newState.requestChallenge(authMethod: authMethods[0], delegate: self)
    }

    func onSignInStrongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState) {
        self.authMethods = authMethods
        registerStrongAuthState = newState
        resultTextView.text = "Register a method: \(authMethods.map(\.channelTargetType.value).joined(separator: ", "))"
    }

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        accountResult = result
        resultTextView.text = "Signed in: \(result.account.username ?? "")"
    }

    // MARK: MFARequestChallengeDelegate

    func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?) {
        resultTextView.text = "Error requesting a code: \(error.errorDescription ?? "no description")"
    }

    func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        mfaRequiredState = newState
        resultTextView.text = "Code sent to \(sentTo) by \(channelTargetType.isSMSType ? "SMS" : "email")"
    }

    func onMFARequestChallengeSelectionRequired(authMethods: [MSALAuthMethod], newState: MFARequiredState) {
        self.authMethods = authMethods
        mfaRequiredState = newState
        resultTextView.text = "Choose a method"
    }

    // MARK: MFASubmitChallengeDelegate

    func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?) {
        if error.isInvalidChallenge, let newState {
            mfaRequiredState = newState
            resultTextView.text = "Invalid code, try again"
        } else {
            resultTextView.text = "Error submitting the code: \(error.errorDescription ?? "no description")"
        }
    }

    // MARK: RegisterStrongAuthChallengeDelegate

    func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?)
    {
        if error.isInvalidInput, let newState {
            registerStrongAuthState = newState
            resultTextView.text = "Invalid contact, try again"
        } else {
            resultTextView.text = "Error registering: \(error.errorDescription ?? "no description")"
        }
    }

    func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult) {
        verificationRequiredState = result.newState
        resultTextView.text = "Verification code sent to \(result.sentTo)"
    }

    // MARK: RegisterStrongAuthSubmitChallengeDelegate

    func onRegisterStrongAuthSubmitChallengeError(
        error: RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?
    ) {
        if error.isInvalidChallenge, let newState {
            verificationRequiredState = newState
            resultTextView.text = "Invalid code, try again"
        } else {
            resultTextView.text = "Error verifying: \(error.errorDescription ?? "no description")"
        }
    }
}
