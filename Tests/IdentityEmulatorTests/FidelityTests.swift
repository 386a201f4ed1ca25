import Foundation
import IdentityEmulator
import Testing

/// Where the emulator once differed from Entra in ways Microsoft's own SDKs notice: the `scope` of token
/// responses, the UserInfo endpoint, and issuers that followed the request's `Host`.
@Suite("Fidelity: response scopes, UserInfo, one issuer whatever the host name")
struct FidelityTests {
    struct ScopeCase: Sendable, CustomTestStringConvertible {
        let form: String
        let external: Bool
        let scope: String
        let answer: String
        var testDescription: String { form }
    }

    /// The cases of `Fixtures/scope-answers.json`, with API 1's client id filled in.
    static let scopeCases: [ScopeCase] = {
        guard let text = try? Golden.text("scope-answers"),
            let document = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let cases = document["cases"] as? [[String: String]]
        else { return [] }
        let fill = { (s: String) in s.replacingOccurrences(of: "{api1}", with: Directory.DemoIDs.api1) }
        return cases.map {
            ScopeCase(
                form: $0["form"] ?? "", external: $0["audience"] == "external", scope: fill($0["scope"] ?? ""),
                answer: fill($0["answer"] ?? ""))
        }
    }()

    @Test("the fixture has a case for each form")
    func fixtureLoads() {
        #expect(Self.scopeCases.count == 6)
    }

    @Test("password and refresh grants answer `scope` in the form asked", arguments: scopeCases)
    func scopeAnswers(_ scopeCase: ScopeCase) async throws {
        try await TestEmulator.with { emulator in
            let (user, password, client, tenant) =
                scopeCase.external
                ? (
                    "jane@example.com", "Jane-Demo-Pass4", emulator.ids.externalPublicClient,
                    emulator.ids.externalTenant
                )
                : ("MeganB@contoso.onmicrosoft.com", "Megan-Demo-Pass1", emulator.ids.publicClient, "organizations")
            let signIn = try await emulator.passwordGrant(
                user: user, password: password, scope: scopeCase.scope, client: client, tenant: tenant)
            #expect(signIn.status == 200, "\(signIn.body)")
            #expect(try signIn.string("scope") == scopeCase.answer, "password grant, \(scopeCase.form)")
            let refreshToken = try #require(try signIn.string("refresh_token"))
            let refreshed = try await emulator.token(
                tenant,
                [
                    ("grant_type", "refresh_token"), ("client_id", client), ("refresh_token", refreshToken),
                    ("scope", scopeCase.scope),
                ])
            #expect(try refreshed.string("scope") == scopeCase.answer, "refresh grant, \(scopeCase.form)")
        }
    }

    @Test("a refresh answers in the form of its own request, not the sign-in's")
    func refreshUsesItsOwnScopes() async throws {
        try await TestEmulator.with { emulator in
            let refreshToken = try #require(try await emulator.passwordGrant().string("refresh_token"))
            let refreshed = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.publicClient),
                    ("refresh_token", refreshToken),
                    ("scope", "https://graph.microsoft.com/.default openid profile offline_access"),
                ])
            #expect(
                try refreshed.string("scope")
                    == "email openid profile https://graph.microsoft.com/User.Read https://graph.microsoft.com/.default"
            )
        }
    }

    @Test("device code answers with the scopes of the device code request")
    func deviceCodeScope() async throws {
        try await TestEmulator.with { emulator in
            let start = try await emulator.post(
                "/organizations/oauth2/v2.0/devicecode",
                form: [
                    ("client_id", emulator.ids.publicClient),
                    ("scope", "https://graph.microsoft.com/.default openid profile offline_access"),
                ])
            let userCode = try #require(try start.string("user_code"))
            let browser = ScriptedBrowser(emulator)
            let entry = try await browser.page("/devicelogin")
            let signIn = try await browser.submitForPage(entry, button: "next", fields: ["otc": userCode])
            _ = try await browser.submitForPage(
                signIn, button: "signin",
                fields: [
                    "username": "MeganB@contoso.onmicrosoft.com", "password": "Megan-Demo-Pass1",
                ])
            let tokens = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                    ("client_id", emulator.ids.publicClient),
                    ("device_code", try #require(try start.string("device_code"))),
                ])
            #expect(
                try tokens.string("scope")
                    == "email openid profile https://graph.microsoft.com/User.Read https://graph.microsoft.com/.default"
            )
        }
    }

    // MARK: UserInfo

    @Test("UserInfo: the ID token's sub and the profile, by GET and POST, advertised by discovery")
    func userInfo() async throws {
        try await TestEmulator.with { emulator in
            let tokens = try await emulator.passwordGrant(scope: "User.Read openid profile email offline_access")
            let accessToken = try #require(try tokens.string("access_token"))
            let idToken = try JWTInspection.claims(try #require(try tokens.string("id_token")))
            for method in ["GET", "POST"] {
                let answer =
                    method == "GET"
                    ? try await emulator.get("/oidc/userinfo", headers: [("Authorization", "Bearer \(accessToken)")])
                    : try await emulator.post(
                        "/oidc/userinfo", form: [], headers: [("Authorization", "Bearer \(accessToken)")])
                #expect(answer.status == 200, "\(method): \(answer.body)")
                let body = try answer.json
                #expect(body["sub"] as? String == idToken["sub"] as? String, "\(method)")
                #expect(body["name"] as? String == "Megan Bowen")
                #expect(body["given_name"] as? String == "Megan")
                #expect(body["family_name"] as? String == "Bowen")
                #expect(body["email"] as? String == "MeganB@contoso.onmicrosoft.com")
            }
            let discovery = try await emulator.get("/organizations/v2.0/.well-known/openid-configuration")
            #expect(try discovery.string("userinfo_endpoint") == "\(emulator.base)/oidc/userinfo")
        }
    }

    @Test("UserInfo refuses as Graph does: 401 without a valid token, 403 without openid")
    func userInfoRefusals() async throws {
        try await TestEmulator.with { emulator in
            let missing = try await emulator.get("/oidc/userinfo")
            #expect(missing.status == 401)
            #expect(
                try (missing.json["error"] as? [String: any Sendable])?["code"] as? String
                    == "InvalidAuthenticationToken")
            #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer ") == true)
            let garbage = try await emulator.get("/oidc/userinfo", headers: [("Authorization", "Bearer a.b.c")])
            #expect(garbage.status == 401)
            let withoutOpenID = try #require(
                try await emulator.passwordGrant(scope: "User.Read").string("access_token"))
            let refused = try await emulator.get(
                "/oidc/userinfo", headers: [("Authorization", "Bearer \(withoutOpenID)")])
            #expect(refused.status == 403)
        }
    }

    // MARK: One origin

    @Test("localhost and 127.0.0.1 get the same issuer in discovery, JWKS and tokens")
    func issuerIgnoresHostAlias() async throws {
        try await TestEmulator.with { emulator in
            let port = emulator.running.port
            let tenant = emulator.ids.contosoTenant
            for alias in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "LOCALHOST:\(port)"] {
                let discovery = try await emulator.get(
                    "/\(tenant)/v2.0/.well-known/openid-configuration", headers: [("Host", alias)])
                #expect(discovery.status == 200, "\(alias)")
                #expect(try discovery.string("issuer") == "\(emulator.base)/\(tenant)/v2.0", "\(alias)")
                #expect(
                    try discovery.string("token_endpoint") == "http://\(alias)/\(tenant)/oauth2/v2.0/token",
                    "endpoints follow the alias")
            }
            let viaLocalhost = try await emulator.token(
                tenant,
                [
                    ("grant_type", "password"), ("client_id", emulator.ids.publicClient),
                    ("username", "MeganB@contoso.onmicrosoft.com"),
                    ("password", "Megan-Demo-Pass1"), ("scope", "User.Read openid profile"),
                ], headers: [("Host", "localhost:\(port)")])
            let iss = try JWTInspection.claims(try #require(try viaLocalhost.string("id_token")))["iss"] as? String
            #expect(iss == "\(emulator.base)/\(tenant)/v2.0")
        }
    }

    @Test(
        "a request naming another host gets 421 on every route and changes nothing",
        arguments: ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost.evil.example:{port}"])
    func foreignHostRefused(_ host: String) async throws {
        try await TestEmulator.with { emulator in
            let named = host.replacingOccurrences(of: "{port}", with: "\(emulator.running.port)")
            let refusedGets = [
                "/_emulator/directory", "/_emulator/requests", "/organizations/v2.0/.well-known/openid-configuration",
                "/v1.0/me", "/oidc/userinfo", "/devicelogin",
            ]
            for path in refusedGets {
                let answer = try await emulator.get(path, headers: [("Host", named)])
                #expect(answer.status == 421, "GET \(path) with Host \(named)")
                #expect(!answer.body.contains("MeganB"), "GET \(path) leaked the directory")
            }
            _ = try await emulator.passwordGrant()
            let reset = try await emulator.post("/_emulator/reset", form: [], headers: [("Host", named)])
            #expect(reset.status == 421)
            let token = try await emulator.token(
                "organizations", [("grant_type", "password")], headers: [("Host", named)])
            #expect(token.status == 421)
            let log = try await emulator.get("/_emulator/requests?path=/oauth2/v2.0/token").json
            #expect((log["requests"] as? [any Sendable])?.count == 1, "the reset was refused, the sign-in still logged")
        }
    }

    @Test("--public-url names every issuer, and its host is accepted")
    func publicURL() async throws {
        let configure: (inout EmulatorConfiguration) -> Void = {
            $0.publicURL = URL(string: "https://login.emulator.test:8443")
        }
        try await TestEmulator.with(configure) { emulator in
            #expect(emulator.running.issuerOrigin.absoluteString == "https://login.emulator.test:8443")
            let tenant = emulator.ids.contosoTenant
            let discovery = try await emulator.get(
                "/\(tenant)/v2.0/.well-known/openid-configuration",
                headers: [("Host", "login.emulator.test:8443")])
            #expect(try discovery.string("issuer") == "https://login.emulator.test:8443/\(tenant)/v2.0")
            let tokens = try await emulator.passwordGrant(tenant: tenant)
            let iss = try JWTInspection.claims(try #require(try tokens.string("id_token")))["iss"] as? String
            #expect(iss == "https://login.emulator.test:8443/\(tenant)/v2.0")
            #expect(
                try await emulator.get("/_emulator/directory", headers: [("Host", "other.emulator.test:8443")]).status
                    == 421)
        }
    }

    @Test("behind a proxy that ends TLS, the public URL's bare host is accepted and endpoints use its scheme")
    func publicURLBehindTLSProxy() async throws {
        let configure: (inout EmulatorConfiguration) -> Void = {
            $0.publicURL = URL(string: "https://login.emulator.test")
        }
        try await TestEmulator.with(configure) { emulator in
            let tenant = emulator.ids.contosoTenant
            for host in ["login.emulator.test", "LOGIN.emulator.test:443"] {
                let discovery = try await emulator.get(
                    "/\(tenant)/v2.0/.well-known/openid-configuration", headers: [("Host", host)])
                #expect(discovery.status == 200, "\(host)")
                #expect(try discovery.string("issuer") == "https://login.emulator.test/\(tenant)/v2.0", "\(host)")
                #expect(
                    try discovery.string("token_endpoint") == "https://login.emulator.test/\(tenant)/oauth2/v2.0/token",
                    "\(host)")
            }
            #expect(
                try await emulator.get("/_emulator/directory", headers: [("Host", "login.emulator.test:80")]).status
                    == 421)
            let local = try await emulator.get("/\(tenant)/v2.0/.well-known/openid-configuration")
            #expect(
                try local.string("token_endpoint") == "\(emulator.base)/\(tenant)/oauth2/v2.0/token",
                "loopback clients keep http")
        }
    }

    @Test("a request without Host gets 400, as HTTP/1.1 requires")
    func missingHost() async throws {
        try await TestEmulator.with { emulator in
            let answer = try await RawHTTP.send(
                "GET /_emulator/directory HTTP/1.1\r\nConnection: close\r\n\r\n", port: emulator.running.port)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(80))")
            #expect(!answer.contains("MeganB"))
        }
    }
}
