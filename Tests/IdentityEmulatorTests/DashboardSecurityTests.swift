import Foundation
import IdentityEmulator
import Testing

/// What keeps the dashboard to the person at the machine: forms posted without the anti-forgery token or from
/// another site are refused and change nothing, other host names are refused, and the request log never shows a
/// secret, code or token.
@Suite("Emulator dashboard: cross-site posts, host names, masking")
struct DashboardSecurityTests {
    /// What the emulator's state looks like from outside: the directory, scenarios, clock, keys.
    private func snapshot(_ emulator: TestEmulator) async throws -> [String] {
        [
            try await emulator.get("/_emulator/export").body, try await emulator.get("/_emulator/scenarios").body,
            try await emulator.get("/_emulator/clock").body,
            try await emulator.get("/common/discovery/v2.0/keys").body,
        ]
    }

    @Test("every form without the token, with a wrong one, or from another site is refused 403, nothing changed")
    func crossSitePostsAreRefused() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            let token = try await dashboard.token()
            let users = emulator.running.directory.users
            let megan = try #require(users.first { $0.userPrincipalName == "MeganB@contoso.onmicrosoft.com" }).id
            let lee = try #require(users.first { $0.userPrincipalName == emulator.ids.mfaUser }).id
            let refreshToken = try #require(try await emulator.passwordGrant().string("refresh_token"))
            try await emulator.scenario("graph", "serverError")
            let before = try await snapshot(emulator)

            let forms: [(String, [(String, String)])] = [
                (
                    "/_emulator/ui/users",
                    [
                        ("tenant", emulator.ids.contosoTenant), ("userPrincipalName", "evil@contoso.onmicrosoft.com"),
                        ("displayName", "Evil"), ("password", "Evil-Pass-1"),
                    ]
                ),
                ("/_emulator/ui/users/\(megan)/profile", [("displayName", "Evil")]),
                ("/_emulator/ui/users/\(megan)/password", [("password", "Evil-Pass-1")]),
                ("/_emulator/ui/users/\(megan)/enabled", [("enabled", "false")]),
                ("/_emulator/ui/users/\(megan)/revoke", []),
                ("/_emulator/ui/users/\(megan)/mfa", [("mfaRequired", "required")]),
                ("/_emulator/ui/users/\(megan)/methods", [("channel", "email"), ("target", "evil@example.com")]),
                ("/_emulator/ui/users/\(lee)/methods/\(emulator.ids.mfaEmailMethod)/delete", []),
                ("/_emulator/ui/scenarios", [("route", "token"), ("fault", "throttle")]),
                ("/_emulator/ui/scenarios/clear", []),
                ("/_emulator/ui/clock", [("offsetSeconds", "3600")]),
                ("/_emulator/ui/keys/rotate", []),
                ("/_emulator/ui/reset", []),
                ("/_emulator/ui/inspector", [("token", refreshToken)]),
                (
                    "/_emulator/ui/inspector/mint",
                    [
                        ("tenant", emulator.ids.contosoTenant), ("api", emulator.ids.api1),
                        ("app", emulator.ids.confidentialClient),
                    ]
                ),
            ]
            let otherSite = "http://evil.example"
            let otherPort = "http://127.0.0.1:\(emulator.running.port == 1 ? 2 : 1)"
            for (path, fields) in forms {
                let attempts: [(String, HTTPResult)] = [
                    ("no token", try await dashboard.post(path, fields, token: nil)),
                    ("a wrong token", try await dashboard.post(path, fields, token: String(token.reversed()))),
                    (
                        "another site's Origin",
                        try await dashboard.post(path, fields, token: token, origin: otherSite, fetchSite: nil)
                    ),
                    (
                        "Origin null",
                        try await dashboard.post(path, fields, token: token, origin: "null", fetchSite: nil)
                    ),
                    (
                        "another port's Origin",
                        try await dashboard.post(path, fields, token: token, origin: otherPort, fetchSite: nil)
                    ),
                    (
                        "Sec-Fetch-Site: cross-site",
                        try await dashboard.post(path, fields, token: token, fetchSite: "cross-site")
                    ),
                    (
                        "Sec-Fetch-Site: same-site",
                        try await dashboard.post(path, fields, token: token, fetchSite: "same-site")
                    ),
                ]
                for (what, result) in attempts {
                    #expect(result.status == 403, "\(path) with \(what): \(result.status)")
                }
            }
            #expect(try await snapshot(emulator) == before)
            let refreshed = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.publicClient),
                    ("refresh_token", refreshToken), ("scope", "User.Read"),
                ])
            #expect(refreshed.status == 200, "the refused revoke revoked nothing")
            #expect(try await emulator.passwordGrant().status == 200, "the password and the account are unchanged")

            let scripted = try await dashboard.post(
                "/_emulator/ui/clock", [("offsetSeconds", "60")], token: token, origin: nil, fetchSite: nil)
            #expect(scripted.status == 302, "the same form with the token from the emulator's origin is taken")
        }
    }

    @Test("a request naming another host is refused 421 on the dashboard, as everywhere")
    func otherHostsAreRefused() async throws {
        try await TestEmulator.with { emulator in
            let port = emulator.running.port
            for request in [
                "GET /_emulator/ HTTP/1.1\r\nHost: rebound.example:\(port)\r\nConnection: close\r\n\r\n",
                "GET /_emulator/ui/log HTTP/1.1\r\nHost: rebound.example:\(port)\r\nConnection: close\r\n\r\n",
                "POST /_emulator/ui/reset HTTP/1.1\r\nHost: rebound.example:\(port)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            ] {
                let answer = try await RawHTTP.send(request, port: port)
                #expect(answer.hasPrefix("HTTP/1.1 421"), "\(answer.prefix(80))")
            }
            let own = try await RawHTTP.send(
                "GET /_emulator/ HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\n\r\n", port: port)
            #expect(own.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("the request log's pages never show a password, secret, code, token, assertion or cookie")
    func logIsMasked() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            var secrets = ["Megan-Demo-Pass1", ids.confidentialSecret]
            let granted = try await emulator.passwordGrant()
            for name in ["access_token", "id_token", "refresh_token"] {
                secrets.append(try #require(try granted.string(name)))
            }
            let refreshed = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "refresh_token"), ("client_id", ids.publicClient),
                    ("refresh_token", try #require(try granted.string("refresh_token"))),
                    ("scope", "User.Read offline_access"),
                ])
            secrets.append(try #require(try refreshed.string("refresh_token")))
            _ = try await emulator.daemonToken(scope: "https://graph.microsoft.com/.default")
            let basic = Data("\(ids.confidentialClient):\(ids.confidentialSecret)".utf8).base64EncodedString()
            secrets.append(basic)
            _ = try await emulator.token(
                ids.contosoTenant,
                [("grant_type", "client_credentials"), ("scope", "https://graph.microsoft.com/.default")],
                headers: [("Authorization", "Basic \(basic)")])
            let assertion = try TestAssertion.demo(audience: emulator.tokenEndpoint(ids.contosoTenant))
            secrets.append(assertion)
            _ = try await emulator.clientCredentials(tenant: ids.contosoTenant, assertion: assertion)
            let graphToken = try #require(try granted.string("access_token"))
            _ = try await emulator.get("/v1.0/me", headers: [("Authorization", "Bearer \(graphToken)")])

            let browser = ScriptedBrowser(emulator)
            let request = AuthorizationRequest(tenant: "contoso.onmicrosoft.com")
            let signIn = try await browser.page(request.path)
            let location = try await browser.submitForRedirect(
                signIn, button: "signin",
                fields: ["username": "MeganB@contoso.onmicrosoft.com", "password": "Megan-Demo-Pass1"])
            let code = try #require(redirectParameters(location)["code"])
            secrets += [code, request.verifier, try #require(browser.sessionCookie)]
            let redeemed = try await emulator.token("contoso.onmicrosoft.com", request.redemption(code: code))
            secrets.append(try #require(try redeemed.string("access_token")))

            let device = try await emulator.post(
                "/organizations/oauth2/v2.0/devicecode",
                form: [("client_id", ids.publicClient), ("scope", "User.Read offline_access")])
            secrets += [try #require(try device.string("device_code")), try #require(try device.string("user_code"))]

            let dashboard = DashboardSession(emulator: emulator)
            var pages = [
                try await dashboard.page("/_emulator/ui/log").body,
                try await emulator.get("/_emulator/ui/log-table").body,
            ]
            let count = try #require(
                (try await emulator.get("/_emulator/requests").json["requests"] as? [any Sendable])?.count)
            #expect(count >= 10)
            for number in 1...count { pages.append(try await dashboard.page("/_emulator/ui/log/\(number)").body) }
            for (number, page) in pages.enumerated() {
                for secret in secrets {
                    #expect(!page.contains(secret), "page \(number) shows a secret: \(secret.prefix(12))…")
                }
            }
            #expect(pages.contains { $0.contains("•••• (") }, "secrets are shown masked")
            #expect(
                pages.contains { $0.contains("authorization_code") && $0.contains("MeganB@contoso.onmicrosoft.com") })
        }
    }
}
