import Foundation
import MSAL
import Testing

@Suite("Tutorial seed 001 and the native-auth delegate API", .timeLimit(.minutes(1)))
struct NativeTutorialTests {
    @Test(
        "seed 001: sign in with email and password, tokens for API 1 and API 2, both APIs called, then the cached token reused"
    )
    func twoAPIs() async throws {
        try await TutorialEnvironment.with { environment in
            let vc = try await MainActor.run { try Seed001ViewController(environment: environment) }
            await MainActor.run {
                vc.emailTextField.text = "jane@example.com"
                vc.passwordTextField.text = "Jane-Demo-Pass4"
                vc.signInPressed(vc)
            }
            try await vc.console.expect("Signed in: jane@example.com")
            await MainActor.run { vc.protectedApi1Pressed(vc) }
            try await vc.console.expect("Retrieving access token to use with API 1...")
            try await vc.console.expect("Accessed API successfully using access token.")
            await MainActor.run { vc.protectedApi2Pressed(vc) }
            try await vc.console.expect("Retrieving access token to use with API 2...")
            let api2 = try await vc.console.expect("Accessed API successfully using access token.")
            #expect(api2.contains("ToDoList API 2"))
            let (one, two) = await MainActor.run { (vc.accessTokenAPI1, vc.accessTokenAPI2) }
            #expect(one != nil && two != nil && one != two)
            await MainActor.run { vc.protectedApi1Pressed(vc) }
            try await vc.console.expect("Accessed API successfully using access token.")
            #expect(try await environment.tokenRequests() == ["password", "refresh_token", "refresh_token"])
        }
    }

    @Test("delegates: a blank username or an empty password is refused with MSAL's flags")
    func refusedInput() async throws {
        try await TutorialEnvironment.with { environment in
            let app = try await MainActor.run { try Seed001ViewController(environment: environment).nativeAuth! }
            let recorder = NativeRecorder()

            app.signIn(username: "  ", password: "Whatever-1", delegate: recorder)
            #expect(try await recorder.next().signInError?.isInvalidUsername == true)
            app.signIn(username: "jane@example.com", password: "", delegate: recorder)
            #expect(try await recorder.next().signInError?.isInvalidCredentials == true)
            app.signUp(username: " ", delegate: recorder)
            #expect(try await recorder.next().signUpError?.isInvalidUsername == true)
            app.signUp(username: "new.user@example.org", password: "", delegate: recorder)
            #expect(try await recorder.next().signUpError?.isInvalidPassword == true)
            app.resetPassword(username: " ", delegate: recorder)
            guard case .resetError(let blank) = try await recorder.next() else {
                Issue.record("reset")
                return
            }
            #expect(blank.isInvalidUsername)
        }
    }

    @Test("delegates: a new code for sign-in, sign-up and a password reset is reported with where it went")
    func resendCode() async throws {
        try await TutorialEnvironment.with { environment in
            let app = try await MainActor.run { try Seed001ViewController(environment: environment).nativeAuth! }
            let recorder = NativeRecorder()
            let every = EveryDelegate()

            app.signIn(username: "sam@example.com", delegate: recorder)
            guard case .signInCode(let signIn) = try await recorder.next() else {
                Issue.record("sign-in code")
                return
            }
            signIn.resendCode(delegate: recorder)
            guard case .codeResent("sign-in", let sentTo, "email", let length) = try await recorder.next() else {
                Issue.record("sign-in code resent")
                return
            }
            #expect(sentTo.contains("***") && length > 0)
            // Without the method for a new code, the error method hears of it.
            app.signIn(username: "sam@example.com", delegate: recorder)
            guard case .signInCode(let again) = try await recorder.next() else {
                Issue.record("second sign-in code")
                return
            }
            again.resendCode(delegate: every)
            #expect(
                await every.next()
                    == .init(
                        method: "onSignInResendCodeError",
                        message: NativeDelegateDefaultsTests.missing("onSignInResendCodeCodeRequired")))

            app.signUp(username: "resent.code@example.org", delegate: recorder)
            guard case .signUpCode(let signUp, _) = try await recorder.next() else {
                Issue.record("sign-up code")
                return
            }
            signUp.resendCode(delegate: recorder)
            guard case .codeResent("sign-up", _, "email", _) = try await recorder.next() else {
                Issue.record("sign-up code resent")
                return
            }

            app.resetPassword(username: "jane@example.com", delegate: recorder)
            guard case .resetCode(let reset) = try await recorder.next() else {
                Issue.record("reset code")
                return
            }
            reset.resendCode(delegate: recorder)
            guard case .codeResent("reset", _, "email", _) = try await recorder.next() else {
                Issue.record("reset code resent")
                return
            }
        }
    }

    @Test("delegates: sign-up step by step, errors with MSAL's flags, a password reset, and a missing optional method")
    func delegateFlows() async throws {
        try await TutorialEnvironment.with { environment in
            let app = try await MainActor.run { try Seed001ViewController(environment: environment).nativeAuth! }
            let recorder = NativeRecorder()

            app.signIn(username: "nobody@example.com", password: "Whatever-1", delegate: recorder)
            #expect(try await recorder.next().signInError?.isUserNotFound == true)
            app.signIn(username: "jane@example.com", password: "Wrong-Pass-1", delegate: recorder)
            #expect(try await recorder.next().signInError?.isInvalidCredentials == true)
            app.signUp(username: "jane@example.com", password: "Another-Pass-1", delegate: recorder)
            #expect(try await recorder.next().signUpError?.isUserAlreadyExists == true)

            let email = "delegate.user@example.org"
            app.signUp(username: email, attributes: ["displayName": "Delegate User"], delegate: recorder)
            guard case .signUpCode(let code, let sentTo) = try await recorder.next() else {
                Issue.record("code")
                return
            }
            #expect(sentTo == "d***@e******.org")
            code.submitCode(code: "1", delegate: recorder)
            guard case .verifyCodeError(let wrong, let retry?) = try await recorder.next() else {
                Issue.record("wrong code")
                return
            }
            #expect(wrong.isInvalidCode)
            retry.submitCode(code: try await environment.lastCode(to: email), delegate: recorder)
            guard case .signUpPassword(let password) = try await recorder.next() else {
                Issue.record("password")
                return
            }
            password.submitPassword(password: "weakweakweak", delegate: recorder)
            guard case .passwordError(let weak, let again?) = try await recorder.next() else {
                Issue.record("weak")
                return
            }
            #expect(weak.isInvalidPassword)
            again.submitPassword(password: "Strong-Enough-9", delegate: recorder)
            guard case .attributesRequired(let names, let attributes) = try await recorder.next() else {
                Issue.record("attributes")
                return
            }
            #expect(names == ["country"])
            attributes.submitAttributes(attributes: ["country": "NZ"], delegate: recorder)
            guard case .signUpCompleted(let after) = try await recorder.next() else {
                Issue.record("completed")
                return
            }
            after.signIn(delegate: recorder)
            guard case .signedIn(let user) = try await recorder.next() else {
                Issue.record("signed in")
                return
            }
            #expect(user.account.username == email)
            // The blocking call is made where the tutorials make it, on the main thread, never on the cooperative pool.
            let cached = await MainActor.run { app.getNativeAuthUserAccount()?.account.username }
            #expect(cached == email)

            app.resetPassword(username: "sam@example.com", delegate: recorder)
            guard case .resetError(let noPassword) = try await recorder.next() else {
                Issue.record("reset")
                return
            }
            #expect(noPassword.isUserDoesNotHavePassword)

            let minimal = MinimalDelegate()
            app.signIn(username: "sam@example.com", delegate: minimal)
            let message = try await minimal.error()
            #expect(
                message
                    == "MSALNativeAuth has called the delegate method onSignInCodeRequired that has not been implemented"
            )
        }
    }
}
