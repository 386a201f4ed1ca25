import AsyncHTTPClient
import Foundation
import MSAL
import TestServers
import Testing

@Suite("OpenID Connect authority: an outside OpenID provider (django-oauth-toolkit), signed in as MSAL Python files it")
struct OIDCAuthorityTests {
    @Test(
        "sign-in through the provider's login form and consent page, silent refresh after expiry, sign-out from the browser"
    )
    func signInRefreshSignOut() async throws {
        try await Self.withProvider { provider, http in
            let browser = FormFillingBrowser(
                http: http, username: DjangoOIDCProvider.username, password: provider.password)
            let (clock, cache) = (TestClock(start: Date()), TokenCache())
            let app = try Self.app(provider, browser: browser, clock: clock, cache: cache)

            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["notes.read"]))
            #expect(browser.pagesSeen == ["signin", "consent"])
            let idToken = try #require(result.idToken)
            let sub = try #require(Self.claims(of: idToken)["sub"] as? String)
            #expect(result.account.homeAccountID.identifier == sub)
            #expect(result.account.username == DjangoOIDCProvider.username)
            #expect(result.account.environment == "127.0.0.1")
            #expect(result.account.accountClaims["name"] == "Ada Lovelace")
            #expect(result.tenantProfile.tenantID == "o")
            #expect(result.scopes.contains("notes.read"))

            // The cache as MSAL Python writes it for oidc_authority: home_account_id = sub, environment = the
            // authority's host, realm = the token endpoint's first path segment.
            let entries = try #require(
                try JSONSerialization.jsonObject(with: try await cache.serialize())
                    as? [String: [String: [String: Any]]])
            for kind in ["AccessToken", "IdToken", "Account"] {
                let entry = try #require(entries[kind]?.values.first, "no \(kind)")
                #expect(entry["home_account_id"] as? String == sub)
                #expect(entry["environment"] as? String == "127.0.0.1")
                #expect(entry["realm"] as? String == "o")
            }
            #expect(entries["RefreshToken"]?.values.first?["home_account_id"] as? String == sub)
            #expect(entries["Account"]?.values.first?["username"] as? String == DjangoOIDCProvider.username)

            let cached = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["notes.read"], account: result.account))
            #expect(cached.source == .cache)
            #expect(cached.accessToken == result.accessToken)

            clock.advance(by: 3600)
            let refreshed = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["notes.read"], account: result.account))
            #expect(refreshed.source == .identityProvider)
            #expect(refreshed.accessToken != result.accessToken)
            #expect(refreshed.account.identifier == sub)
            #expect(try await app.accounts().map(\.identifier) == [sub])

            try await app.signOut(refreshed.account, fromBrowser: true)
            #expect(browser.pagesSeen == ["signin", "consent", "signout", "page"])
            #expect(try await app.accounts().isEmpty)

            // The provider's session ended: the next sign-in asks for the password again.
            _ = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["notes.read"]))
            #expect(browser.pagesSeen.suffix(2) == ["signin", "consent"])
        }
    }

    @Test("a refresh the provider answers without an ID token keeps the account and its ID token")
    func refreshWithoutIDToken() async throws {
        try await Self.withProvider(idTokenOnRefresh: false) { provider, http in
            let browser = FormFillingBrowser(
                http: http, username: DjangoOIDCProvider.username, password: provider.password)
            let (clock, cache) = (TestClock(start: Date()), TokenCache())
            let app = try Self.app(provider, browser: browser, clock: clock, cache: cache)
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["notes.read"]))

            let refreshed = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["notes.read"], account: result.account, forceRefresh: true))
            #expect(refreshed.source == .identityProvider)
            #expect(refreshed.idToken == nil)
            #expect(refreshed.accessToken != result.accessToken)
            #expect(refreshed.account.identifier == result.account.identifier)
            #expect(refreshed.account.username == DjangoOIDCProvider.username)
            let entries = try #require(
                try JSONSerialization.jsonObject(with: try await cache.serialize())
                    as? [String: [String: [String: Any]]])
            #expect(entries["IdToken"]?.values.first?["secret"] as? String == result.idToken)
            #expect(entries["AccessToken"]?.values.first?["secret"] as? String == refreshed.accessToken)
            let cached = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["notes.read"], account: result.account))
            #expect(cached.source == .cache)
            #expect(cached.accessToken == refreshed.accessToken)
        }
    }

    /// An app that signs in at `provider` as an OpenID Connect authority through `browser`, keeping its tokens in
    /// `cache` and telling the time by `clock`.
    private static func app(
        _ provider: DjangoOIDCProvider, browser: FormFillingBrowser, clock: TestClock, cache: TokenCache
    ) throws -> PublicClientApplication {
        var configuration = try PublicClientApplicationConfiguration(
            clientID: DjangoOIDCProvider.clientID, authority: Authority(provider.issuer, kind: .oidc),
            redirectURI: "http://127.0.0.1")
        configuration.browser = browser
        configuration.clock = clock
        configuration.cache = cache
        configuration.interactiveTimeout = .seconds(30)
        return try PublicClientApplication(configuration: configuration)
    }

    /// A provider of the test's own and an HTTP client for its browser, which does not follow redirects.
    private static func withProvider(
        idTokenOnRefresh: Bool = true, _ body: (DjangoOIDCProvider, HTTPClient) async throws -> Void
    ) async throws {
        try await DjangoOIDCProvider.with(idTokenOnRefresh: idTokenOnRefresh) { provider in
            let http = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
            do {
                try await body(provider, http)
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    private static func claims(of jwt: String) throws -> [String: Any] {
        let part = jwt.split(separator: ".")[1]
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let data = try #require(Data(base64Encoded: base64))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
