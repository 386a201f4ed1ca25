import Foundation
import Testing

@testable import MSAL

@Suite("OpenID Connect authorities: the issuer kept whole, MSAL Python's issuer rules, its realm")
struct OIDCAuthorityUnitTests {
    @Test("an OpenID Connect issuer keeps its /v2.0 (an External ID custom URL domain), an undeclared one is Entra's")
    func issuerKeptWhole() throws {
        let issuer = "https://login.contoso.com/c1a2b3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d/v2.0"
        let oidc = try Authority(issuer, kind: .oidc)
        #expect(oidc.url.absoluteString == issuer)
        #expect(oidc.discoveryURL.absoluteString == issuer + "/.well-known/openid-configuration")
        let entra = try Authority(issuer)
        #expect(entra.kind == .aad)
        #expect(entra.url.absoluteString == "https://login.contoso.com/c1a2b3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d")
        #expect(
            try Authority("https://accounts.example.com/", kind: .oidc).url.absoluteString
                == "https://accounts.example.com")
    }

    @Test(
        "a discovered issuer is the authority's as MSAL Python's has_valid_issuer says, or a known authority's",
        arguments: [
            ("https://login.contoso.com/tid/v2.0", "https://login.contoso.com/tid/v2.0/", true),
            ("https://login.contoso.com/tid/v2.0", "https://login.contoso.com/other", true),
            ("https://login.contoso.com/tid/v2.0", "https://tid.ciamlogin.com/tid/v2.0", true),
            ("https://login.contoso.com/tid/v2.0", "https://login.microsoftonline.com/tid/v2.0", true),
            ("https://login.contoso.com/tid/v2.0", "https://westus2.login.microsoft.com/tid/v2.0", true),
            ("https://contoso.com/tid", "https://us.contoso.com/tid", true),
            ("https://login.contoso.com/tid/v2.0", "https://issuer.example.net:8443/tid/v2.0", true),
            ("https://login.contoso.com/tid/v2.0", "https://evil.example.com/tid/v2.0", false),
            ("https://login.contoso.com/tid/v2.0", "https://fakeciamlogin.com/tid/v2.0", false),
            ("https://login.contoso.com/tid/v2.0", "https://a.b.login.microsoft.com/tid/v2.0", false),
            ("http://127.0.0.1:8400/o", "https://127.0.0.1:8400/o", false),
            ("https://login.contoso.com/tid/v2.0", "not a url", false),
        ])
    func issuerRules(authority: String, issuer: String, accepted: Bool) throws {
        let known: Set<String> = ["issuer.example.net:8443"]
        #expect(
            OIDCIssuerCheck.accepts(issuer, authority: try Authority(authority, kind: .oidc), knownEnvironments: known)
                == accepted)
    }

    @Test("discovery refuses an issuer on another host; the realm is the token endpoint's first path segment")
    func discoveredEndpoints() throws {
        let authority = try Authority("https://accounts.example.com", kind: .oidc)
        func document(issuer: String) -> Data {
            Data(
                """
                {"issuer":"\(issuer)","authorization_endpoint":"https://accounts.example.com/o/oauth2/v2/auth",
                "token_endpoint":"https://oauth2.example.com/token","jwks_uri":"https://www.example.com/oauth2/v3/certs"}
                """.utf8)
        }
        let endpoints = try AuthorityEndpoints(
            authority: authority, document: document(issuer: "https://accounts.example.com"), aliases: [])
        #expect(endpoints.issuerTenant == "token")
        #expect(endpoints.cacheEnvironment == "accounts.example.com")
        let refused = try #require(throws: MSALError.self) {
            try AuthorityEndpoints(
                authority: authority, document: document(issuer: "https://evil.example.org"), aliases: [])
        }
        #expect(refused.internalCode == .failedAuthorityValidation)
    }
}
