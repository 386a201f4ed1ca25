import Foundation
import IdentityEmulator
import MSAL
import Testing

/// Which realm access tokens are filed under through `common` and `organizations`, and which realms a
/// silent lookup takes, so that MSAL Python (which files under the authority's segment) and MSAL.NET
/// (which files under the tenant) share tokens with this library.
@Suite("Cache realms under multi-tenant authorities")
struct MultiTenantRealmTests {
    static let contoso = Directory.DemoIDs.contosoTenant

    /// The cache as JSON sections.
    static func sections(_ cache: TokenCache) async throws -> [String: [String: [String: Any]]] {
        let object = try JSONSerialization.jsonObject(with: try await cache.serialize()) as? [String: Any] ?? [:]
        return object.compactMapValues { $0 as? [String: [String: Any]] }
    }

    static func realms(_ section: [String: [String: Any]]?) -> Set<String> {
        Set((section ?? [:]).values.compactMap { $0["realm"] as? String })
    }

    @Test(
        "through organizations or common the access token is filed under the segment, the ID token and account under the tenant",
        arguments: ["organizations", "common"])
    func filedUnderSegment(segment: String) async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let app = try h.app(tenant: segment, user: h.user(Harness.megan), cache: cache)
            let signedIn = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            #expect(signedIn.tenantProfile.tenantID == Self.contoso)
            let sections = try await Self.sections(cache)
            #expect(Self.realms(sections["AccessToken"]) == [segment])
            #expect(Self.realms(sections["IdToken"]) == [Self.contoso])
            #expect(Self.realms(sections["Account"]) == [Self.contoso])

            let silent = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: signedIn.account))
            #expect(silent.source == .cache)
            #expect(silent.tenantProfile.tenantID == Self.contoso)
            var viaTenant = SilentParameters(scopes: ["User.Read"], account: signedIn.account)
            viaTenant.authority = try h.authority(Self.contoso)
            #expect(
                try await app.acquireTokenSilently(viaTenant).source == .cache,
                "the home tenant takes a token from \(segment)")
            #expect(try await h.tokenRequests() == ["authorization_code"])

            h.clock.advance(by: 3600)
            let refreshed = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: signedIn.account))
            #expect(refreshed.source == .identityProvider)
            #expect(
                Self.realms(try await Self.sections(cache)["AccessToken"]) == [segment],
                "a silent refresh files under the segment too")
        }
    }

    @Test("a token filed under the tenant (MSAL.NET, or this library before) serves a request through organizations")
    func tenantRealmServesOrganizations() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let byTenant = try h.app(tenant: Self.contoso, user: h.user(Harness.megan), cache: cache)
            let signedIn = try await byTenant.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            #expect(Self.realms(try await Self.sections(cache)["AccessToken"]) == [Self.contoso])
            let organizations = try h.app(tenant: "organizations", cache: cache)
            let account = try #require(try await organizations.accounts().first)
            let silent = try await organizations.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: account))
            #expect(silent.source == .cache)
            #expect(silent.accessToken == signedIn.accessToken)
        }
    }

    @Test("organizations and common share tokens: both come from the home tenant")
    func organizationsAndCommonShare() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let organizations = try h.app(tenant: "organizations", user: h.user(Harness.megan), cache: cache)
            let signedIn = try await organizations.acquireTokenInteractively(
                InteractiveParameters(scopes: ["User.Read"]))
            let common = try h.app(tenant: "common", cache: cache)
            let silent = try await common.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: signedIn.account))
            #expect(silent.source == .cache)
            #expect(silent.accessToken == signedIn.accessToken)
            #expect(try await h.tokenRequests() == ["authorization_code"])
        }
    }

    @Test("an expired token in the first realm does not hide a valid one in the next")
    func expiredTokenDoesNotHide() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let organizations = try h.app(tenant: "organizations", user: h.user(Harness.megan), cache: cache)
            let first = try await organizations.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            h.clock.advance(by: 3000)
            let byTenant = try h.app(tenant: Self.contoso, user: h.user(Harness.megan), cache: cache)
            let second = try await byTenant.acquireTokenInteractively(
                InteractiveParameters(scopes: ["User.Read"], prompt: .login))
            h.clock.advance(by: 400)  // the organizations token is now inside the expiry buffer, the tenant's is not
            let silent = try await organizations.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(silent.source == .cache)
            #expect(silent.accessToken == second.accessToken)
            #expect(try await h.tokenRequests() == ["authorization_code", "authorization_code"])
        }
    }

    @Test("MSAL Python's shape (access token, ID token and account all under organizations) is read as the tenant's")
    func pythonShapedCache() async throws {
        try await Harness.with { h in
            let written = TokenCache()
            let app = try h.app(tenant: "organizations", user: h.user(Harness.megan), cache: written)
            let signedIn = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            var object = try JSONSerialization.jsonObject(with: try await written.serialize()) as? [String: Any] ?? [:]
            for name in ["AccessToken", "IdToken", "Account"] {
                guard var section = object[name] as? [String: [String: Any]] else { continue }
                for key in section.keys { section[key]?["realm"] = "organizations" }
                object[name] = section
            }
            let python = TokenCache()
            try await python.deserialize(try JSONSerialization.data(withJSONObject: object))
            let reader = try h.app(tenant: "organizations", cache: python)
            let accounts = try await reader.accounts()
            #expect(accounts.count == 1)
            #expect(accounts.first?.tenantProfiles.map(\.tenantID) == [Self.contoso])
            #expect(accounts.first?.tenantProfiles.first?.isHomeTenantProfile == true)
            let account = try #require(accounts.first)
            let silent = try await reader.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: account))
            #expect(silent.source == .cache)
            #expect(silent.accessToken == signedIn.accessToken)
            #expect(silent.tenantProfile.tenantID == Self.contoso)
            #expect(try await h.tokenRequests() == ["authorization_code"])
        }
    }
}
