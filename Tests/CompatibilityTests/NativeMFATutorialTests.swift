import Foundation
import MSAL
import Testing

@Suite("MSAL for iOS 2.x: MFA and strong-method registration through delegates", .timeLimit(.minutes(1)))
struct NativeMFATutorialTests {
    @Test("MFA: password, a code by email to the first method, a wrong code, then the right one")
    func mfa() async throws {
        try await TutorialEnvironment.with { environment in
            let vc = try await MainActor.run { try MFAViewController(environment: environment) }
            await MainActor.run {
                vc.emailTextField.text = "lee@example.com"
                vc.passwordTextField.text = "Lee-Demo-Pass7"
                vc.signInPressed(vc)
            }
            try await vc.console.expect("MFA required: email, sms")
            try await vc.console.expect("Code sent to l***@")
            let code = try await environment.lastCode(to: "lee.backup@example.com")
            await MainActor.run {
                vc.codeTextField.text = code == "00000000" ? "11111111" : "00000000"
                vc.submitChallengePressed(vc)
            }
            try await vc.console.expect("Invalid code, try again")
            await MainActor.run {
                vc.codeTextField.text = code
                vc.submitChallengePressed(vc)
            }
            try await vc.console.expect("Signed in: lee@example.com")
            #expect(try await environment.tokenRequests() == ["password", "mfa_oob", "mfa_oob"])
        }
    }

    @Test("registration: an invalid contact, then a new email and its code; the user is signed in")
    func registration() async throws {
        try await TutorialEnvironment.with { environment in
            let vc = try await MainActor.run { try MFAViewController(environment: environment) }
            await MainActor.run {
                vc.emailTextField.text = "noah@example.com"
                vc.passwordTextField.text = "Noah-Demo-Pass8"
                vc.signInPressed(vc)
            }
            try await vc.console.expect("Register a method: email")
            await MainActor.run {
                vc.contactTextField.text = "nope"
                vc.registerPressed(methodAt: 0)
            }
            try await vc.console.expect("Invalid contact, try again")
            await MainActor.run {
                vc.contactTextField.text = "noah.phone.mail@example.com"
                vc.registerPressed(methodAt: 0)
            }
            try await vc.console.expect("Verification code sent to noah.phone.mail@example.com")
            let code = try await environment.lastCode(to: "noah.phone.mail@example.com")
            await MainActor.run {
                vc.codeTextField.text = code
                vc.submitRegistrationCodePressed(vc)
            }
            try await vc.console.expect("Signed in: noah@example.com")
        }
    }
}
