import Foundation
import IdentityEmulator
import Testing

@Suite("Token endpoint: grants, response shapes, errors")
struct TokenGrantTests {
    @Test("password grant: Entra's success body, headers, and the correlation id echoed in errors")
    func passwordGrant() async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.passwordGrant()
            #expect(result.status == 200)
            try Golden.expectShape(result.body, matches: "token-success")
            #expect(result.header("Pragma") == "no-cache")
            #expect(result.header("Content-Type") == "application/json; charset=utf-8")
            let expires = try #require(try result.json["expires_in"] as? Int)
            #expect((3600...5399).contains(expires))
            #expect(try result.json["ext_expires_in"] as? Int == expires)
            #expect(try result.json["refresh_in"] == nil)

            let correlation = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
            let bad = try await emulator.passwordGrant(password: "nope", extra: [("x-client-SKU", "ignored")])
            #expect(bad.status == 400)
            try Golden.expectShape(bad.body, matches: "token-error-revoked", ignoring: ["suberror"])
            #expect(try bad.json["error_codes"] as? [Int] == [50126])
            let echoed = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "password"), ("client_id", emulator.ids.publicClient),
                    ("username", "MeganB@contoso.onmicrosoft.com"), ("password", "x"), ("scope", "User.Read"),
                ],
                headers: [("client-request-id", correlation)])
            #expect(try echoed.string("correlation_id") == correlation)
            #expect(try echoed.string("error_description")?.contains("Correlation ID: \(correlation)") == true)
            #expect(echoed.header("x-ms-request-id") == (try echoed.string("trace_id")))
        }
    }

    @Test("refresh grant: a new refresh token each time, and the old one keeps working")
    func refreshRotation() async throws {
        try await TestEmulator.with { emulator in
            let first = try #require(try await emulator.passwordGrant().string("refresh_token"))
            let refresh = { (token: String) in
                try await emulator.token(
                    "organizations",
                    [
                        ("grant_type", "refresh_token"), ("client_id", emulator.ids.publicClient),
                        ("refresh_token", token), ("scope", "User.Read openid profile offline_access"),
                        ("client_info", "1"),
                    ])
            }
            let second = try await refresh(first)
            #expect(second.status == 200)
            try Golden.expectShape(second.body, matches: "token-success")
            let rotated = try #require(try second.string("refresh_token"))
            #expect(rotated != first)
            #expect(try await refresh(first).status == 200)
            #expect(try await refresh(rotated).status == 200)
        }
    }

    @Test("after an admin revocation, refresh gives invalid_grant AADSTS50173 bad_token")
    func revocation() async throws {
        try await TestEmulator.with { emulator in
            let token = try #require(try await emulator.passwordGrant().string("refresh_token"))
            try await emulator.setClockOffset(1)
            #expect(
                try await emulator.post("/_emulator/users/MeganB@contoso.onmicrosoft.com/revoke", json: "{}").status
                    == 200)
            let result = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.publicClient),
                    ("refresh_token", token), ("scope", "User.Read"),
                ])
            #expect(result.status == 400)
            try Golden.expectShape(result.body, matches: "token-error-revoked")
            #expect(try result.string("error") == "invalid_grant")
            #expect(try result.string("suberror") == "bad_token")
            #expect(try result.json["error_codes"] as? [Int] == [50173])
            #expect(
                try result.string("error_description")?.contains(
                    "TokensValidFrom date (before which tokens are not valid) for this user is '2026-11-18") == true)
            let fresh = try #require(try await emulator.passwordGrant().string("refresh_token"))
            let after = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.publicClient),
                    ("refresh_token", fresh), ("scope", "User.Read"),
                ])
            #expect(after.status == 200)
        }
    }

    @Test("a refresh token serves another tenant where the user is a guest, and family apps (FOCI)")
    func refreshAcrossTenantsAndFamily() async throws {
        try await TestEmulator.with { emulator in
            let login = try await emulator.passwordGrant(client: emulator.ids.familyClientOne)
            #expect(try login.string("foci") == "1")
            try Golden.expectShape(login.body, matches: "token-success", ignoring: ["foci"])
            let rt = try #require(try login.string("refresh_token"))
            let guest = try await emulator.token(
                "fabrikam.onmicrosoft.com",
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.familyClientOne),
                    ("refresh_token", rt), ("scope", "User.Read openid profile"),
                ])
            let claims = try JWTInspection.claims(try #require(try guest.string("id_token")))
            #expect(claims["tid"] as? String == emulator.ids.fabrikamTenant)
            let family = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.familyClientTwo),
                    ("refresh_token", rt), ("scope", "User.Read"),
                ])
            #expect(family.status == 200)
            let stranger = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.publicClient),
                    ("refresh_token", rt), ("scope", "User.Read"),
                ])
            #expect(try stranger.string("error") == "invalid_grant")
        }
    }

    @Test("cp1 clients get refresh_in and an xms_cc access token; others do not")
    func clientCapabilities() async throws {
        try await TestEmulator.with { emulator in
            let claims = #"{"access_token":{"xms_cc":{"values":["cp1"]}}}"#
            let result = try await emulator.passwordGrant(extra: [("claims", claims)])
            try Golden.expectShape(result.body, matches: "token-success-cae-foci", ignoring: ["refresh_in", "foci"])
            let expires = try #require(try result.json["expires_in"] as? Int)
            #expect(try result.json["refresh_in"] as? Int == expires / 2)
            #expect(result.body.contains(#""ext_expires_in":\#(expires),"refresh_in""#))
            let at = try JWTInspection.claims(try #require(try result.string("access_token")))
            #expect(at["xms_cc"] as? [String] == ["cp1"])
        }
    }

    @Test("client credentials: app-only token with roles; /.default required; wrong secret is 401")
    func clientCredentials() async throws {
        try await TestEmulator.with { emulator in
            let tenant = emulator.ids.contosoTenant
            let ok = try await emulator.token(
                tenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.confidentialClient),
                    ("client_secret", emulator.ids.confidentialSecret),
                    ("scope", "https://graph.microsoft.com/.default"),
                ])
            #expect(ok.status == 200)
            try Golden.expectShape(ok.body, matches: "token-app-only")
            let at = try JWTInspection.claims(try #require(try ok.string("access_token")))
            #expect(at["roles"] as? [String] == ["User.Read.All"])
            #expect(at["idtyp"] as? String == "app")

            let basic = Data("\(emulator.ids.confidentialClient):\(emulator.ids.confidentialSecret)".utf8)
                .base64EncodedString()
            let viaBasic = try await emulator.token(
                tenant, [("grant_type", "client_credentials"), ("scope", "api://\(emulator.ids.api1)/.default")],
                headers: [("Authorization", "Basic \(basic)")])
            #expect(viaBasic.status == 200)

            let noDefault = try await emulator.token(
                tenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.confidentialClient),
                    ("client_secret", emulator.ids.confidentialSecret), ("scope", "User.Read"),
                ])
            #expect(try noDefault.json["error_codes"] as? [Int] == [1_002_012])
            let wrong = try await emulator.token(
                tenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.confidentialClient),
                    ("client_secret", "wrong"), ("scope", "https://graph.microsoft.com/.default"),
                ])
            #expect(wrong.status == 401)
            #expect(try wrong.string("error") == "invalid_client")
            #expect(try wrong.json["error_codes"] as? [Int] == [7_000_215])
        }
    }

    @Test(
        "errors: missing parameter, unknown client/tenant/grant, bad scope, no consent, secrets",
        arguments: TokenErrorCase.all)
    func tokenErrors(_ c: TokenErrorCase) async throws {
        let (tenant, code, error) = (c.tenant, c.code, c.error)
        try await TestEmulator.with { emulator in
            let result = try await emulator.token(tenant, c.form)
            #expect(result.status == (error == "invalid_client" ? 401 : 400))
            try Golden.expectShape(result.body, matches: "token-error-revoked", ignoring: ["suberror"])
            #expect(try result.json["error_codes"] as? [Int] == [code])
            #expect(try result.string("error") == error)
            #expect(try result.string("error_description")?.hasPrefix("AADSTS\(code): ") == true)
        }
    }

    @Test("an expired authorization code (10 minutes) gets AADSTS70008")
    func expiredCode() async throws {
        try await TestEmulator.with { emulator in
            let request = AuthorizationRequest()
            let location = try await emulator.signInInteractively(request, browser: ScriptedBrowser(emulator))
            try await emulator.setClockOffset(601)
            let result = try await emulator.token(
                request.tenant, request.redemption(code: try #require(redirectParameters(location)["code"])))
            #expect(try result.json["error_codes"] as? [Int] == [70008])
        }
    }

    @Test("a code redeemed by another client or with another redirect_uri is refused")
    func codeBinding() async throws {
        try await TestEmulator.with { emulator in
            let request = AuthorizationRequest()
            let location = try await emulator.signInInteractively(request, browser: ScriptedBrowser(emulator))
            var other = request.redemption(code: try #require(redirectParameters(location)["code"]))
            other.removeAll { $0.0 == "client_id" }
            other.append(("client_id", emulator.ids.familyClientOne))
            #expect(try await emulator.token(request.tenant, other).string("error") == "invalid_grant")

            let second = try await emulator.signInInteractively(request, browser: ScriptedBrowser(emulator))
            var redirect = request.redemption(code: try #require(redirectParameters(second)["code"]))
            redirect.removeAll { $0.0 == "redirect_uri" }
            redirect.append(("redirect_uri", "http://localhost:9999/elsewhere"))
            #expect(try await emulator.token(request.tenant, redirect).json["error_codes"] as? [Int] == [70000])
        }
    }
}

/// One refused token request and the AADSTS code it must get.
struct TokenErrorCase: Sendable, CustomTestStringConvertible {
    let form: [(String, String)]
    var tenant = "organizations"
    let code: Int
    let error: String

    var testDescription: String { "AADSTS\(code) \(error)" }

    static let client = Directory.DemoIDs.publicClient
    static let megan: [(String, String)] = [
        ("username", "MeganB@contoso.onmicrosoft.com"), ("password", "Megan-Demo-Pass1"),
    ]
    static let api1 = "api://\(Directory.DemoIDs.api1)/ToDoList.Read"

    static let all: [TokenErrorCase] = [
        TokenErrorCase(
            form: [("grant_type", "password"), ("client_id", client)], code: 900144, error: "invalid_request"),
        TokenErrorCase(
            form: [
                ("grant_type", "password"), ("client_id", "00000000-1111-2222-3333-444444444444"), ("username", "x"),
                ("password", "y"), ("scope", "User.Read"),
            ], code: 700016, error: "unauthorized_client"),
        TokenErrorCase(
            form: [
                ("grant_type", "refresh_token"), ("client_id", client), ("refresh_token", "x"), ("scope", "User.Read"),
            ],
            tenant: "nowhere.example", code: 90002, error: "invalid_request"),
        TokenErrorCase(
            form: [("grant_type", "magic"), ("client_id", client)], code: 70003, error: "unsupported_grant_type"),
        TokenErrorCase(
            form: [
                ("grant_type", "refresh_token"), ("client_id", client), ("refresh_token", "garbage"),
                ("scope", "User.Read"),
            ],
            code: 9_002_313, error: "invalid_grant"),
        TokenErrorCase(
            form: [("grant_type", "password"), ("client_id", client), ("scope", "User.Fly")] + megan, code: 70011,
            error: "invalid_scope"),
        TokenErrorCase(
            form: [
                ("grant_type", "password"), ("client_id", client), ("username", "nobody@contoso.onmicrosoft.com"),
                ("password", "x"), ("scope", "User.Read"),
            ], code: 50034, error: "invalid_grant"),
        TokenErrorCase(
            form: [("grant_type", "password"), ("client_id", client), ("scope", api1)] + megan, code: 65001,
            error: "invalid_grant"),
        TokenErrorCase(
            form: [("grant_type", "password"), ("client_id", client), ("client_secret", "s"), ("scope", "User.Read")]
                + megan,
            code: 700025, error: "invalid_client"),
        TokenErrorCase(
            form: [("grant_type", "password"), ("client_id", client), ("scope", "User.Read \(api1)")] + megan,
            code: 28000, error: "invalid_scope"),
    ]
}
