import Foundation
import IdentityEmulator
import MSAL
import Testing

@Suite("TokenCache.removeAccessToken: forgetting a token a resource refused")
struct RemoveAccessTokenTests {
    @Test("a user's removed token is replaced by a new one on the next silent call; other tokens stay")
    func usersToken() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let app = try h.app(user: h.user(Harness.megan), cache: cache)
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            let api = h.api1Default
            let other = try await app.acquireTokenSilently(SilentParameters(scopes: api, account: first.account))

            try await cache.removeAccessToken("not-a-cached-token", account: first.account)
            try await cache.removeAccessToken(first.accessToken, account: nil)
            let kept = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(kept.source == .cache, "another value, or the right value filed as an app's, removes nothing")

            try await cache.removeAccessToken(first.accessToken, account: first.account)
            let renewed = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(renewed.source == .identityProvider)
            #expect(renewed.accessToken != first.accessToken)
            let untouched = try await app.acquireTokenSilently(SilentParameters(scopes: api, account: first.account))
            #expect(untouched.source == .cache)
            #expect(untouched.accessToken == other.accessToken)
        }
    }

    @Test("an app token kept in a public client's cache is removed with no account; the next app gets a new one")
    func appToken() async throws {
        try await Harness.with { h in
            let shared = TokenCache()
            let first = try await h.confidentialApp(cache: PartitionedTokenCache(appTokens: shared))
                .acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            let cached = try await h.confidentialApp(cache: PartitionedTokenCache(appTokens: shared))
                .acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(cached.source == .cache)

            try await shared.removeAccessToken(first.accessToken, account: nil)
            let renewed = try await h.confidentialApp(cache: PartitionedTokenCache(appTokens: shared))
                .acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(renewed.source == .identityProvider)
            #expect(renewed.accessToken != first.accessToken)
            #expect(try await h.tokenRequests() == ["client_credentials", "client_credentials"])
        }
    }
}
