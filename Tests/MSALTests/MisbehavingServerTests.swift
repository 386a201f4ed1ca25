import Foundation
import IdentityEmulator
import Testing

@testable import MSAL

/// A hostile or broken identity platform (the emulator's scenarios): every answer that fails the
/// OpenID Connect relying-party checks or the token-response contract ends in a specific error, and
/// nothing reaches the cache.
@Suite("Misbehaving server", .timeLimit(.minutes(2)))
struct MisbehavingServerTests {
    @Test(
        "an ID token that fails validation is refused with invalidIDToken and nothing is cached",
        arguments: [
            "idTokenBadSignature", "idTokenAlgNone", "idTokenWrongIssuer", "idTokenWrongAudience", "idTokenExpired",
            "idTokenIssuedInFuture", "idTokenMissingNonce", "idTokenWrongNonce",
        ])
    func badIDToken(fault: String) async throws {
        try await Harness.with { h in
            let (error, cache) = try await Self.failedSignIn(h, "token", fault)
            #expect(error.internalCode == .invalidIDToken, "\(error)")
            try await Self.expectEmpty(cache)
        }
    }

    @Test("an ID token signed with an unknown kid is refused after one JWKS refresh")
    func unknownKid() async throws {
        try await Harness.with { h in
            let first = try h.app(user: h.user(Harness.megan))
            _ = try await first.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            let keysBefore = try await h.keyRequests()
            try await h.scenario("token", "idTokenUnknownKid")
            let cache = TokenCache()
            var configuration = first.configuration
            configuration.cache = cache
            configuration.browser = h.user(Harness.megan)
            let app = try PublicClientApplication(configuration: configuration)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"], prompt: .login))
            }
            #expect(error.internalCode == .invalidIDToken, "\(error)")
            #expect(try await h.keyRequests() == keysBefore + 1, "exactly one refetch of the JWKS")
            try await Self.expectEmpty(cache)
        }
    }

    @Test("a provider that sends a new kid with every ID token costs one JWKS fetch per five minutes, not per token")
    func unknownKidRefetchRateLimited() async throws {
        try await Harness.with { h in
            let app = try h.app(
                user: h.user(Harness.megan, Harness.megan, Harness.megan, Harness.megan, Harness.megan, Harness.megan))
            let signIn = {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"], prompt: .login))
            }
            _ = try await signIn()
            let keysAfterFirst = try await h.keyRequests()
            try await h.scenario("token", "idTokenUnknownKid", count: 4)
            for _ in 0..<3 {
                let error = try await #require(throws: MSALError.self) { try await signIn() }
                #expect(error.internalCode == .invalidIDToken)
            }
            #expect(try await h.keyRequests() == keysAfterFirst, "no refetch within five minutes of the last")
            h.clock.advance(by: 301)
            await #expect(throws: MSALError.self) { try await signIn() }
            #expect(try await h.keyRequests() == keysAfterFirst + 1, "one refetch once five minutes have passed")
            #expect(try await signIn().account.username == "MeganB@contoso.onmicrosoft.com")
            #expect(try await h.keyRequests() == keysAfterFirst + 1, "the known key needs no fetch")
        }
    }

    @Test("a provider that rolls its key over: the first token with the new kid refetches the keys once, then none")
    func keyRollover() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan, Harness.megan, Harness.megan))
            let signIn = {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"], prompt: .login))
            }
            let before = try await signIn()
            let keysAfterFirst = try await h.keyRequests()
            h.clock.advance(by: 600)
            let rotated = try await h.admin("POST", "keys/rotate", body: "{}")
            let newKid = try #require(rotated["kid"] as? String)
            #expect((rotated["published"] as? [String])?.count == 2, "the old key stays published")

            let after = try await signIn()
            #expect(Self.keyID(after.idToken) == newKid && Self.keyID(before.idToken) != newKid)
            #expect(try await h.keyRequests() == keysAfterFirst + 1, "one refetch for the new kid")
            _ = try await signIn()
            #expect(try await h.keyRequests() == keysAfterFirst + 1, "the new key is known now")
        }
    }

    private static func keyID(_ idToken: String?) -> String? {
        guard let header = idToken?.split(separator: ".").first,
            let data = Base64URL.decode(header),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return json["kid"] as? String
    }

    @Test("a redirect with another state is refused before any code is redeemed")
    func wrongState() async throws {
        try await Harness.with { h in
            // The loopback receiver ignores it and waits for the real redirect, which never comes here.
            try await h.scenario("authorize", "wrongState")
            let cache = TokenCache()
            var configuration = try h.app(user: h.user(Harness.megan), cache: cache).configuration
            configuration.interactiveTimeout = .seconds(2)
            let error = try await #require(throws: MSALError.self) {
                try await PublicClientApplication(configuration: configuration).acquireTokenInteractively(
                    InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(error.internalCode == .timedOut)
            #expect(try await h.tokenRequests().isEmpty)
            try await Self.expectEmpty(cache)

            // A receiver that hands over whatever arrives (an app's own) leaves the check to the flow.
            try await h.scenario("authorize", "wrongState")
            let handing = try h.app(
                user: h.user(Harness.megan), cache: cache, redirectReceiver: StatelessLoopbackReceiver())
            let refused = try await #require(throws: MSALError.self) {
                try await handing.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(refused.internalCode == .invalidState)
            #expect(try await h.tokenRequests().isEmpty)
        }
    }

    /// The loopback receiver through the protocol's requirement that knows no `state`.
    struct StatelessLoopbackReceiver: RedirectReceiver {
        func receiveResponse(
            at redirectURI: String, timeout: Duration, begin: @Sendable (String) async throws -> Void
        ) async throws -> AuthorizationResponse {
            try await LoopbackRedirectReceiver().receiveResponse(at: redirectURI, timeout: timeout, begin: begin)
        }
    }

    @Test("a code issued to another client is refused by the token endpoint: invalidGrant with its AADSTS code")
    func codeForAnotherClient() async throws {
        try await Harness.with { h in
            let (error, cache) = try await Self.failedSignIn(h, "authorize", "codeForAnotherClient")
            #expect(error.internalCode == .invalidGrant, "\(error)")
            #expect(error.oauthError == "invalid_grant")
            #expect(error.stsErrorCodes.contains(70000))
            try await Self.expectEmpty(cache)
        }
    }

    @Test(
        "a token response without token_type, or with a type other than Bearer, is refused",
        arguments: ["missingTokenType", "nonBearerTokenType"])
    func badTokenType(fault: String) async throws {
        try await Harness.with { h in
            let (error, cache) = try await Self.failedSignIn(h, "token", fault)
            #expect(error.internalCode == .invalidResponse, "\(error)")
            #expect(error.message.contains("token_type"))
            try await Self.expectEmpty(cache)
        }
    }

    @Test("on refresh, an ID token for another user is refused and the cache keeps the old tokens")
    func refreshForAnotherUser() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            try await h.scenario("token", "idTokenOtherUser")
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(error.internalCode == .invalidIDToken)
            #expect(try await app.accounts().map(\.username) == ["MeganB@contoso.onmicrosoft.com"])
            let again = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(again.accessToken == first.accessToken)
        }
    }

    // MARK: Helpers

    /// Arms `fault` on `route` and signs Megan in with a fresh cache; returns the error and that cache.
    static func failedSignIn(_ h: Harness, _ route: String, _ fault: String) async throws -> (MSALError, TokenCache) {
        try await h.scenario(route, fault)
        let cache = TokenCache()
        let app = try h.app(user: h.user(Harness.megan), cache: cache)
        let error = try await #require(throws: MSALError.self) {
            try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
        }
        return (error, cache)
    }

    /// No account, so no token either: a failed sign-in must leave no trace.
    static func expectEmpty(_ cache: TokenCache) async throws {
        #expect(try await cache.accounts().isEmpty)
        let document = try JSONSerialization.jsonObject(with: try await cache.serialize()) as? [String: Any] ?? [:]
        for section in ["AccessToken", "RefreshToken", "IdToken", "Account"] {
            #expect((document[section] as? [String: Any] ?? [:]).isEmpty, "\(section) is not empty")
        }
    }
}
