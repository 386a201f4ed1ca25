import Foundation
import MSAL
import Testing

@Suite("Native-auth delegates: one object adopting every delegate protocol", .timeLimit(.minutes(1)))
struct NativeDelegateDefaultsTests {
    static func missing(_ method: String) -> String {
        "MSALNativeAuth has called the delegate method \(method) that has not been implemented"
    }

    @Test(
        "an object with only the error methods hears of each missing method through the error method of the call it was given to"
    )
    func everyDelegate() async throws {
        try await TutorialEnvironment.with { environment in
            let app = try await MainActor.run { try Seed001ViewController(environment: environment).nativeAuth! }
            let every = EveryDelegate()
            let recorder = NativeRecorder()

            app.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4", delegate: every)
            #expect(
                await every.next() == .init(method: "onSignInStartError", message: Self.missing("onSignInCompleted")))
            app.resetPassword(username: "jane@example.com", delegate: every)
            #expect(
                await every.next()
                    == .init(method: "onResetPasswordStartError", message: Self.missing("onResetPasswordCodeRequired")))

            // The step after a code is a password: the verify-code delegate's error method hears it, not the
            // password delegate's, though the object is both.
            let first = "every.delegate@example.org"
            app.signUp(username: first, attributes: ["displayName": "Every Delegate"], delegate: recorder)
            guard case .signUpCode(let code, _) = try await recorder.next() else {
                Issue.record("code")
                return
            }
            code.submitCode(code: try await environment.lastCode(to: first), delegate: every)
            #expect(
                await every.next()
                    == .init(method: "onSignUpVerifyCodeError", message: Self.missing("onSignUpPasswordRequired")))

            // The step after a password is attributes: the password delegate's error method hears it.
            let second = "every.delegate.two@example.org"
            app.signUp(username: second, attributes: ["displayName": "Every Delegate"], delegate: recorder)
            guard case .signUpCode(let secondCode, _) = try await recorder.next() else {
                Issue.record("second code")
                return
            }
            secondCode.submitCode(code: try await environment.lastCode(to: second), delegate: recorder)
            guard case .signUpPassword(let password) = try await recorder.next() else {
                Issue.record("password")
                return
            }
            password.submitPassword(password: "Strong-Enough-9", delegate: every)
            #expect(
                await every.next()
                    == .init(
                        method: "onSignUpPasswordRequiredError", message: Self.missing("onSignUpAttributesRequired")))
        }
    }
}
