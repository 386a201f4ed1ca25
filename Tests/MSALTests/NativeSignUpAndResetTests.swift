import Foundation
import IdentityEmulator
import MSAL
import Testing

@Suite("Native auth: sign-up and password reset")
struct NativeSignUpAndResetTests {
    @Test("sign-up with everything up front: verify the email, then signed in without asking again")
    func signUpAllAtOnce() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp()
            let state = try Expect.code(
                try await app.signUp(
                    username: "new.customer@example.org", password: "Fresh-Start-42",
                    attributes: ["displayName": "New Customer", "country": "NZ"]))
            let after = try Expect.completed(
                try await state.submitCode(try await h.lastCode(to: "new.customer@example.org")))
            let user = try Expect.completed(try await after.signIn(scopes: h.api1Scopes))
            #expect(user.accountClaims["preferred_username"] == "new.customer@example.org")
            #expect(user.accountClaims["name"] == "New Customer")
            await #expect(throws: MSALError.self) { try await after.signIn() }
            _ = try Expect.completed(
                try await app.signIn(username: "new.customer@example.org", password: "Fresh-Start-42"))
        }
    }

    @Test("sign-up step by step: wrong code, weak password, invalid attribute — each keeps the state")
    func signUpStepByStep() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp()
            let email = "step.by.step@example.org"
            let code = try Expect.code(try await app.signUp(username: email))
            guard case .invalidCode(let retry) = try await code.submitCode("12345678x") else {
                Issue.record("wrong code")
                return
            }
            guard case .passwordRequired(let password) = try await retry.submitCode(try await h.lastCode(to: email))
            else {
                Issue.record("the tenant needs a password")
                return
            }
            guard case .invalidPassword(.tooWeak, let again?) = try await password.submitPassword("alllowercaseletters")
            else {
                Issue.record("a one-class password is too weak")
                return
            }
            guard
                case .attributesRequired(let attributes, let required) = try await again.submitPassword(
                    "Much-Better-77")
            else {
                Issue.record("the tenant needs attributes")
                return
            }
            #expect(required.map(\.name) == ["displayName", "country"])
            #expect(required.first { $0.name == "country" }?.regex == "^[A-Z]{2}$")
            guard
                case .attributesInvalid(let names, let fix?) = try await attributes.submitAttributes([
                    "displayName": "Step", "country": "New Zealand",
                ])
            else {
                Issue.record("the country must be two letters")
                return
            }
            #expect(names == ["country"])
            let after = try Expect.completed(try await fix.submitAttributes(["displayName": "Step", "country": "NZ"]))
            let user = try Expect.completed(try await after.signIn())
            #expect(user.account.username == email)
            let directory = try await h.admin("GET", "directory")
            let created = (directory["users"] as? [[String: Any]])?.first {
                ($0["userPrincipalName"] as? String) == email
            }
            #expect(created?["country"] as? String == "NZ")
        }
    }

    @Test("sign-up resend: a new code in the outbox, the old code refused, the new one accepted")
    func signUpResendCode() async throws {
        try await Harness.with { h in
            let email = "resend.me@example.org"
            let state = try Expect.code(
                try await h.nativeApp().signUp(
                    username: email, password: "Fresh-Start-42",
                    attributes: ["displayName": "Resend", "country": "NZ"]))
            let first = try await h.lastCode(to: email)
            let resent = try Expect.code(try await state.resendCode())
            let second = try await h.lastCode(to: email)
            #expect(first != second)
            guard case .invalidCode(let retry) = try await resent.submitCode(first) else {
                Issue.record("the first code must be void")
                return
            }
            let after = try Expect.completed(try await retry.submitCode(second))
            #expect(try Expect.completed(try await after.signIn()).account.username == email)
        }
    }

    @Test("a tenant's own settings: a longer minimum password length and only a country required")
    func tenantSettings() async throws {
        var directory = Directory.demo
        let index = try #require(directory.tenants.firstIndex { $0.kind == .external })
        directory.tenants[index].nativeAuth = try JSONDecoder().decode(
            NativeAuthSettings.self,
            from: Data(
                #"""
                {"passwordPolicy": {"minimumLength": 16}, "signUpAttributes": [{"name": "country", "required": true, "regex": "^[A-Z]{2}$"}]}
                """#.utf8))
        try await Harness.with(directory: directory) { h in
            let app = try h.nativeApp()
            let email = "policy.test@example.org"
            // 14 characters, three classes: the standard policy accepts it (signUpAllAtOnce).
            guard
                case .invalidPassword(.tooShort, nil) = try await app.signUp(
                    username: email, password: "Fresh-Start-42")
            else {
                Issue.record("the tenant wants 16 characters")
                return
            }
            let state = try Expect.code(try await app.signUp(username: email, password: "Fresh-Start-42-Longer"))
            guard
                case .attributesRequired(let attributes, let required) = try await state.submitCode(
                    try await h.lastCode(to: email))
            else {
                Issue.record("the tenant needs a country")
                return
            }
            #expect(required.map(\.name) == ["country"])
            let after = try Expect.completed(try await attributes.submitAttributes(["country": "NZ"]))
            #expect(try Expect.completed(try await after.signIn()).account.username == email)
        }
    }

    @Test("sign-up refusals: an existing user, the password policy, unknown attributes")
    func signUpRefusals() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp()
            guard
                case .userAlreadyExists = try await app.signUp(
                    username: Harness.jane.username, password: "Another-Pass-1")
            else {
                Issue.record("jane exists")
                return
            }
            let cases: [(String, PasswordProblem)] = [
                ("Sh0rt!", .tooShort), (String(repeating: "Aa1!", count: 70), .tooLong), ("Password1!", .banned),
                ("Pat-pat.Doe-99", .invalid), ("onlylowercase1", .tooWeak),
            ]
            for (password, problem) in cases {
                guard
                    case .invalidPassword(let got, nil) = try await app.signUp(
                        username: "pat.doe@example.org", password: password)
                else {
                    Issue.record("\(problem) expected")
                    continue
                }
                #expect(got == problem)
            }
            guard
                case .attributesInvalid(let names, nil) = try await app.signUp(
                    username: "pat.doe@example.org",
                    attributes: ["shoeSize": "44"])
            else {
                Issue.record("an unknown attribute is invalid")
                return
            }
            #expect(names == ["shoeSize"])
            guard case .browserRequired = try await h.nativeApp([.oob]).signUp(username: "pat.doe@example.org") else {
                Issue.record("a tenant that needs a password needs an app that collects one")
                return
            }
        }
    }

    @Test("password reset: wrong code, the current password refused, polls until done, then signed in with the new one")
    func resetPassword() async throws {
        try await Harness.with { h in
            let sleeps = SleepLog()
            let app = try h.nativeApp(sleeps: sleeps)
            let code = try Expect.code(try await app.resetPassword(username: Harness.jane.username))
            guard case .invalidCode(let retry) = try await code.submitCode("0") else {
                Issue.record("wrong code")
                return
            }
            guard
                case .newPasswordRequired(let password) = try await retry.submitCode(
                    try await h.lastCode(to: Harness.jane.username))
            else {
                Issue.record("the code was right")
                return
            }
            guard
                case .invalidPassword(.recentlyUsed, let again) = try await password.submitPassword(
                    Harness.jane.password)
            else {
                Issue.record("the current password cannot be reused")
                return
            }
            guard case .completed(let after) = try await again.submitPassword("Brand-New-Pass5") else {
                Issue.record("reset")
                return
            }
            #expect(sleeps.all == [.seconds(1), .seconds(1)])
            _ = try Expect.completed(try await after.signIn())
            guard
                case .invalidPassword = try await app.signIn(
                    username: Harness.jane.username, password: Harness.jane.password)
            else {
                Issue.record("the old password must fail")
                return
            }
            _ = try Expect.completed(try await app.signIn(username: Harness.jane.username, password: "Brand-New-Pass5"))
        }
    }

    @Test("password reset refusals: an unknown user, a user without a password, an app that cannot collect a code")
    func resetRefusals() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp()
            guard case .userNotFound = try await app.resetPassword(username: "nobody@example.com") else {
                Issue.record("unknown")
                return
            }
            guard case .userHasNoPassword = try await app.resetPassword(username: Harness.sam) else {
                Issue.record("code-only")
                return
            }
            guard
                case .browserRequired = try await h.nativeApp([.password]).resetPassword(
                    username: Harness.jane.username)
            else {
                Issue.record("a reset needs an email code, which a password-only app cannot collect")
                return
            }
        }
    }
}
