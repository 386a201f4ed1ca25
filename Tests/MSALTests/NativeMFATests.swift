import Foundation
import Logging
import MSAL
import Testing

@Suite("Native auth: MFA and registering a strong authentication method")
struct NativeMFATests {
    @Test("password, then MFA by text message: methods listed masked, a wrong code kept, the right one signs in")
    func mfaBySMS() async throws {
        try await Harness.with { h in
            let store = CapturingLogHandler.Store()
            var logger = Logger(label: "test", factory: { _ in CapturingLogHandler(store: store) })
            logger.logLevel = .trace
            let app = try h.nativeApp(capabilities: [.mfaRequired], logger: logger)
            let correlationID = UUID()
            let first = try await app.signIn(
                username: Harness.lee.username, password: Harness.lee.password, correlationID: correlationID)
            guard case .mfaRequired(let awaiting, let methods) = first else { throw Unexpected("unexpected \(first)") }
            #expect(awaiting.correlationID == correlationID)
            #expect(methods.map(\.channel) == ["email", "sms"])
            #expect(methods.allSatisfy { !($0.loginHint ?? "").contains("lee.backup") && $0.loginHint != nil })
            let sms = try #require(methods.first { $0.channel == "sms" })
            #expect(sms.loginHint?.hasSuffix("0123") == true && sms.loginHint?.contains("555555") == false)

            guard
                case .verificationRequired(let required, let delivery) = try await awaiting.requestChallenge(
                    authMethod: sms)
            else { throw Unexpected("no code sent") }
            #expect(delivery.channel == "sms" && delivery.codeLength == 8)
            let code = try await h.lastCode(to: "+15555550123")
            guard
                case .invalidCode(let retry) = try await required.submitChallenge(code == "00000000" ? "1" : "00000000")
            else { throw Unexpected("a wrong code must give invalidCode") }
            guard case .completed(let user) = try await retry.submitChallenge(code) else {
                throw Unexpected("the right code must sign in")
            }
            #expect(user.account.username == Harness.lee.username)
            #expect(try await h.tokenRequests() == ["password", "mfa_oob", "mfa_oob"])
            let text = store.all
            for secret in [code, Harness.lee.password, "+15555550123", "lee.backup@example.com"] {
                #expect(!text.contains(secret), "a secret in the log")
            }
        }
    }

    @Test("MFA by the default method (email), resend, then the used state is refused")
    func mfaDefaultMethodAndResend() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp(capabilities: [.mfaRequired])
            let first = try await app.signIn(username: Harness.lee.username, password: Harness.lee.password)
            guard case .mfaRequired(let awaiting, _) = first else { throw Unexpected("unexpected \(first)") }
            guard case .verificationRequired(let required, let delivery) = try await awaiting.requestChallenge() else {
                throw Unexpected("no code sent")
            }
            #expect(delivery.channel == "email" && delivery.sentTo.hasPrefix("l***@"))
            let firstCode = try await h.lastCode(to: "lee.backup@example.com")
            guard case .verificationRequired(let resent, _) = try await required.requestChallenge() else {
                throw Unexpected("no code resent")
            }
            let secondCode = try await h.lastCode(to: "lee.backup@example.com")
            guard case .completed = try await resent.submitChallenge(secondCode) else {
                throw Unexpected("the new code must sign in")
            }
            if firstCode != secondCode {
                let reuse = await #expect(throws: MSALError.self) { try await resent.submitChallenge(secondCode) }
                #expect(reuse?.oauthError == "invalid_request")
            }
        }
    }

    @Test("without the mfa_required capability the user is sent to the browser; the capability is on the wire")
    func withoutCapability() async throws {
        try await Harness.with { h in
            let result = try await h.nativeApp().signIn(
                username: Harness.lee.username, password: Harness.lee.password)
            guard case .browserRequired(let reason) = result else { throw Unexpected("unexpected \(result)") }
            #expect(reason.contains("mfa_required"))
        }
    }

    @Test("registration: an invalid contact, a new email verified with a wrong then right code; next time MFA")
    func registration() async throws {
        try await Harness.with { h in
            let store = CapturingLogHandler.Store()
            var logger = Logger(label: "test", factory: { _ in CapturingLogHandler(store: store) })
            logger.logLevel = .trace
            let app = try h.nativeApp(capabilities: [.mfaRequired, .registrationRequired], logger: logger)
            let first = try await app.signIn(username: Harness.noah.username, password: Harness.noah.password)
            guard case .registrationRequired(let register, let methods) = first else {
                throw Unexpected("unexpected \(first)")
            }
            let email = try #require(methods.first { $0.channel == "email" })
            guard
                case .invalidContact(let retry) = try await register.challengeAuthMethod(
                    email, verificationContact: "not-an-address")
            else { throw Unexpected("an invalid contact must give invalidContact") }
            guard
                case .verificationRequired(let verifying, let delivery) = try await retry.challengeAuthMethod(
                    email, verificationContact: "noah.second@example.com")
            else { throw Unexpected("no code sent to the new contact") }
            #expect(delivery.sentTo == "noah.second@example.com")
            let code = try await h.lastCode(to: "noah.second@example.com")
            guard
                case .invalidCode(let again) = try await verifying.submitChallenge(
                    code == "00000000" ? "1" : "00000000")
            else { throw Unexpected("a wrong code must give invalidCode") }
            guard case .completed(let user) = try await again.submitChallenge(code) else {
                throw Unexpected("the right code must register the method and sign in")
            }
            #expect(user.account.username == Harness.noah.username)

            let next = try await app.signIn(username: Harness.noah.username, password: Harness.noah.password)
            guard case .mfaRequired(_, let registered) = next else { throw Unexpected("unexpected \(next)") }
            #expect(registered.map(\.channel) == ["email"])
            for secret in [code, Harness.noah.password, "noah.second@example.com", "not-an-address"] {
                #expect(!store.all.contains(secret), "a secret in the log")
            }
        }
    }

    @Test("registration with the user's own, already verified address needs no code")
    func preverified() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp(capabilities: [.mfaRequired, .registrationRequired])
            let first = try await app.signIn(username: Harness.noah.username, password: Harness.noah.password)
            guard case .registrationRequired(let register, let methods) = first else {
                throw Unexpected("unexpected \(first)")
            }
            let email = try #require(methods.first { $0.channel == "email" })
            guard
                case .completed(let user) = try await register.challengeAuthMethod(
                    email, verificationContact: Harness.noah.username)
            else { throw Unexpected("the user's own address is verified already") }
            #expect(user.account.username == Harness.noah.username)
        }
    }

    @Test("the app's correlation id goes on every request of the sign-in and of getAccessToken, and back in results")
    func correlationIDEndToEnd() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp(capabilities: [.mfaRequired])
            let signInID = UUID()
            let first = try await app.signIn(
                username: Harness.lee.username, password: Harness.lee.password, correlationID: signInID)
            guard case .mfaRequired(let awaiting, _) = first,
                case .verificationRequired(let required, _) = try await awaiting.requestChallenge(),
                case .completed(let user) = try await required.submitChallenge(
                    try await h.lastCode(to: "lee.backup@example.com"))
            else { throw Unexpected("MFA did not complete") }
            let tokenID = UUID()
            let token = try await user.getAccessToken(
                scopes: h.api1Scopes, forceRefresh: true, correlationID: tokenID)
            #expect(token.correlationID == tokenID)
            let served = (try await h.admin("GET", "requests")["requests"] as? [[String: Any]]) ?? []
            let native = served.filter { request in
                let path = request["path"] as? String ?? ""
                return ["initiate", "challenge", "introspect"].contains { path.hasSuffix($0) }
            }
            #expect(native.count >= 3)
            #expect(
                native.allSatisfy {
                    ($0["client_request_id"] as? String)?.lowercased() == signInID.uuidString.lowercased()
                })
            let refresh = served.filter { $0["grant_type"] as? String == "refresh_token" }
            #expect(
                refresh.map { ($0["client_request_id"] as? String)?.lowercased() } == [tokenID.uuidString.lowercased()])
        }
    }

    @Test("an MFA state whose continuation token expired is refused with expired_token")
    func expiredContinuationToken() async throws {
        try await Harness.with { h in
            let app = try h.nativeApp(capabilities: [.mfaRequired])
            let first = try await app.signIn(username: Harness.lee.username, password: Harness.lee.password)
            guard case .mfaRequired(let awaiting, _) = first else { throw Unexpected("unexpected \(first)") }
            try await h.setClockOffset(3600)
            let expired = await #expect(throws: MSALError.self) { try await awaiting.requestChallenge() }
            #expect(expired?.oauthError == "expired_token")
        }
    }
}

/// A test's complaint about an unexpected outcome.
private struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
