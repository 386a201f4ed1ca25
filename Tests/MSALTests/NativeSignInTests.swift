import Foundation
import Logging
import MSAL
import Testing

@Suite("Native auth: sign-in, tokens for two APIs, sign-out")
struct NativeSignInTests {
    @Test("email + password in one call: signed in, claims from the ID token, tokens cached")
    func passwordSignIn() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp()
            let user = try Expect.completed(
                try await app.signIn(username: Harness.jane.username, password: Harness.jane.password))
            #expect(user.accountClaims["preferred_username"] == Harness.jane.username)
            #expect(user.account.username == Harness.jane.username)
            #expect(user.idToken?.split(separator: ".").count == 3)
            #expect(try await h.tokenRequests() == ["password"])
            #expect(try await app.currentAccount()?.account == user.account)
        }
    }

    @Test("password asked for, a wrong one keeps the state, the right one signs in; the used state is rejected")
    func passwordRequiredThenWrongThenRight() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp()
            let state = try Expect.password(try await app.signIn(username: Harness.jane.username))
            guard case .invalidPassword(let retry) = try await state.submitPassword("Not-Her-Pass9") else {
                Issue.record("a wrong password must give invalidPassword")
                return
            }
            _ = try Expect.completed(try await retry.submitPassword(Harness.jane.password))
            let reuse = await #expect(throws: MSALError.self) { try await retry.submitPassword(Harness.jane.password) }
            #expect(reuse?.oauthError == "invalid_request")
            #expect(reuse?.stsErrorCodes == [55000])
        }
    }

    @Test("unknown user, empty username, an app that cannot collect what the user needs")
    func startOutcomes() async throws {
        try await Harness.with { h in
            guard
                case .userNotFound = try await h.nativeApp().signIn(
                    username: "nobody@example.com", password: "Whatever-1")
            else {
                Issue.record("expected userNotFound")
                return
            }
            let empty = await #expect(throws: MSALError.self) { try await h.nativeApp().signIn(username: "  ") }
            #expect(empty?.internalCode == .invalidParameter)
            guard case .browserRequired = try await h.nativeApp([.oob]).signIn(username: Harness.jane.username) else {
                Issue.record("a password user on a code-only app needs the browser")
                return
            }
            guard case .browserRequired = try await h.nativeApp([.password]).signIn(username: Harness.sam) else {
                Issue.record("a code-only user on a password-only app needs the browser")
                return
            }
        }
    }

    @Test("a code-only user: masked address, wrong code kept, resend, the old code no longer works")
    func codeOnlyUser() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp()
            let (state, delivery) = try Expect.code(
                try await app.signIn(username: Harness.sam, password: "ignored-Pass1"))
            #expect(delivery.sentTo == "s***@e******.com" && delivery.channel == "email" && delivery.codeLength == 8)
            let first = try await h.lastCode(to: Harness.sam)
            #expect(first.count == 8 && first.allSatisfy(\.isNumber))
            guard
                case .invalidCode(let again) = try await state.submitCode("00000000" == first ? "11111111" : "00000000")
            else {
                Issue.record("a wrong code must give invalidCode")
                return
            }
            let (resent, _) = try Expect.code(try await again.resendCode())
            let second = try await h.lastCode(to: Harness.sam)
            if first != second {
                guard case .invalidCode = try await resent.submitCode(first) else {
                    Issue.record("the first code must be void")
                    return
                }
            }
            let user = try Expect.completed(try await resent.submitCode(second))
            #expect(user.account.username == Harness.sam)
            #expect(try await h.tokenRequests().filter { $0 == "oob" }.count == (first != second ? 3 : 2))
        }
    }

    @Test("an expired code is refused and a resent one works; an expired continuation token is an error")
    func expiry() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp()
            let (state, _) = try Expect.code(try await app.signIn(username: Harness.sam))
            let code = try await h.lastCode(to: Harness.sam)
            h.clock.advance(by: 601)
            guard case .invalidCode(let retry) = try await state.submitCode(code) else {
                Issue.record("the code expired")
                return
            }
            let (fresh, _) = try Expect.code(try await retry.resendCode())
            _ = try Expect.completed(try await fresh.submitCode(try await h.lastCode(to: Harness.sam)))

            let waiting = try Expect.password(try await app.signIn(username: Harness.jane.username))
            h.clock.advance(by: 901)
            let expired = await #expect(throws: MSALError.self) {
                try await waiting.submitPassword(Harness.jane.password)
            }
            #expect(expired?.oauthError == "expired_token")
        }
    }

    @Test("one sign-in, tokens for API 1 and API 2: one token request per API, then cache hits")
    func twoAPIs() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp()
            let user = try Expect.completed(
                try await app.signIn(username: Harness.jane.username, password: Harness.jane.password))
            let one = try await user.getAccessToken(scopes: h.api1Scopes)
            let two = try await user.getAccessToken(scopes: h.api2Scopes)
            #expect(one.source == .identityProvider && two.source == .identityProvider)
            #expect(h.api1Scopes.allSatisfy(one.scopes.contains) && h.api2Scopes.allSatisfy(two.scopes.contains))
            #expect(one.accessToken != two.accessToken)
            let oneAgain = try await user.getAccessToken(scopes: [h.api1Scopes[0]])
            let twoAgain = try await user.getAccessToken(scopes: h.api2Scopes)
            #expect(
                oneAgain.source == .cache && oneAgain.accessToken == one.accessToken, "\(one.scopes) \(oneAgain.scopes)"
            )
            #expect(twoAgain.source == .cache && twoAgain.accessToken == two.accessToken)
            let requests = try await h.tokenRequests()
            #expect(requests == ["password", "refresh_token", "refresh_token"], "\(requests)")
            let forced = try await user.getAccessToken(scopes: h.api1Scopes, forceRefresh: true)
            #expect(forced.source == .identityProvider)
        }
    }

    @Test("single account: a new sign-in replaces the previous user; sign-out forgets the user without a request")
    func singleAccountAndSignOut() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let app = try h.nativeApp(cache: cache)
            _ = try Expect.completed(
                try await app.signIn(username: Harness.jane.username, password: Harness.jane.password))
            let (state, _) = try Expect.code(try await app.signIn(username: Harness.sam))
            let sam = try Expect.completed(try await state.submitCode(try await h.lastCode(to: Harness.sam)))
            #expect(try await app.application.accounts().map(\.username) == [Harness.sam])
            let before = try await h.tokenRequests().count
            try await sam.signOut()
            #expect(try await app.currentAccount() == nil)
            #expect(try await h.tokenRequests().count == before)
            await #expect(throws: MSALError.self) { try await sam.getAccessToken(scopes: h.api1Scopes) }
        }
    }

    @Test("printing a result or state shows no password, username or continuation token")
    func statesPrintNoSecrets() async throws {
        try await Harness.with { h in
            let result = try await h.nativeApp().signIn(username: Harness.sam, password: "Given-Up-Front-1")
            let (state, _) = try Expect.code(result)
            for text in ["\(result)", String(reflecting: result), "\(state)", String(reflecting: state)] {
                #expect(
                    !text.contains("Given-Up-Front-1") && !text.contains(Harness.sam)
                        && !text.contains("uY29udGludWF0aW9u"), "\(text)")
            }
            #expect("\(state)" == "SignInCodeRequiredState")
            #expect(Mirror(reflecting: state).children.isEmpty)
        }
    }

    @Test("nothing personal in the logs: no username, password, code or token")
    func noPIIInLogs() async throws {
        try await Harness.with { h in
            let store = CapturingLogHandler.Store()
            var logger = Logger(label: "test", factory: { _ in CapturingLogHandler(store: store) })
            logger.logLevel = .trace
            let app = try h.nativeApp(logger: logger)
            let (state, _) = try Expect.code(try await app.signIn(username: Harness.sam))
            let code = try await h.lastCode(to: Harness.sam)
            let user = try Expect.completed(try await state.submitCode(code))
            let token = try await user.getAccessToken(scopes: h.api1Scopes)
            _ = try Expect.completed(
                try await app.signIn(username: Harness.jane.username, password: Harness.jane.password))
            let text = store.all
            #expect(text.contains("native sign-in finished"))
            for secret in [Harness.sam, Harness.jane.username, Harness.jane.password, code, token.accessToken] {
                #expect(!text.contains(secret))
            }
        }
    }
}
