import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import Testing

@Suite("External ID on a custom URL domain, signed in through as an OpenID Connect authority (against the emulator)")
struct CustomURLDomainTests {
    @Test(
        "discovery, sign-in and refresh go to the custom URL domain; the issuer stays the tenant's, a known authority"
    )
    func signInThroughCustomURLDomain() async throws {
        try await Harness.with { h in
            let domain = "\(h.ids.externalCustomURLDomain):\(h.emulator.port)"
            let user = h.user(.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4"))
            let app = try Self.app(h, domain: domain, browser: LocalhostBrowser(user: user), trustingIssuer: true)

            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            #expect(user.pagesSeen == ["signin"])
            #expect(result.account.username == "jane@example.com")
            #expect(result.account.environment == h.ids.externalCustomURLDomain)
            #expect(
                result.account.homeAccountID.identifier
                    == "7a9c1e3f-5b7d-4f9a-8c2e-4f6a8c0e2b4d.\(h.ids.externalTenant)")
            #expect(result.tenantProfile.tenantID == h.ids.externalTenant)

            h.clock.advance(by: 3600 - 200)
            let refreshed = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: result.account))
            #expect(refreshed.source == .identityProvider)
            #expect(try await h.tokenRequests() == ["authorization_code", "refresh_token"])
            #expect(try await Self.hosts(h, "/oauth2/v2.0/token") == [domain, domain])
            #expect(try await Self.hosts(h, "/v2.0/.well-known/openid-configuration") == [domain])
        }
    }

    @Test("an issuer on another host than the custom URL domain is refused unless it is a known authority's")
    func foreignIssuerRefused() async throws {
        try await Harness.with { h in
            let domain = "\(h.ids.externalCustomURLDomain):\(h.emulator.port)"
            let user = h.user(.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4"))
            let app = try Self.app(h, domain: domain, browser: LocalhostBrowser(user: user), trustingIssuer: false)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(error.internalCode == .failedAuthorityValidation)
            #expect(user.pagesSeen.isEmpty)
        }
    }

    /// The External ID app with `https://{domain}/{tenant}/v2.0` as its OpenID Connect authority, as MSAL.NET's
    /// `WithOidcAuthority` takes it; the emulator's own authority for the tenant a known one when `trustingIssuer`,
    /// as `{tenant}.ciamlogin.com`, the issuer Entra keeps on a custom URL domain, is to MSAL.
    private static func app(_ h: Harness, domain: String, browser: any BrowserLauncher, trustingIssuer: Bool) throws
        -> PublicClientApplication
    {
        var configuration = try PublicClientApplicationConfiguration(
            clientID: h.ids.externalPublicClient,
            authority: Authority("http://\(domain)/\(h.ids.externalTenant)/v2.0", kind: .oidc))
        configuration.knownAuthorities = trustingIssuer ? [try h.authority(h.ids.externalTenant)] : []
        configuration.browser = browser
        configuration.clock = h.clock
        configuration.sleep = { _ in await Task.yield() }
        configuration.interactiveTimeout = .seconds(30)
        return try PublicClientApplication(configuration: configuration)
    }

    /// The `Host` each request the emulator logged for `path` named.
    private static func hosts(_ h: Harness, _ path: String) async throws -> [String] {
        let json = try await h.admin("GET", "requests?path=\(path)")
        return ((json["requests"] as? [[String: Any]]) ?? []).compactMap { $0["host"] as? String }
    }
}

/// The scripted user's browser, which reaches a name under `localhost` at `localhost` as browsers do (RFC 6761);
/// its HTTP client would look the name up in DNS.
private struct LocalhostBrowser: BrowserLauncher {
    let user: AutomatedUser

    func open(_ url: URL) async throws {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        if components.host?.hasSuffix(".localhost") == true { components.host = "localhost" }
        try await user.open(components.url!)
    }
}
