import Foundation
import IdentityEmulator
import Testing

/// The dashboard's pages and forms over HTTP: each page served, each form changing the emulator as the admin API
/// would, and what it changed seen by the identity platform's endpoints.
@Suite("Emulator dashboard: pages and forms")
struct DashboardTests {
    @Test("every page is served as HTML from /_emulator/, framed, no framing by others, no scripts from elsewhere")
    func pagesAreServed() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            for path in DashboardSession.fixedPages + ["/_emulator"] {
                let page = try await dashboard.page(path)
                #expect(page.header("X-Frame-Options") == "DENY", "\(path)")
                #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true, "\(path)")
                #expect(page.body.contains(#"<nav aria-label="Dashboard">"#), "\(path)")
            }
            let style = try await emulator.get("/_emulator/ui/style.css")
            #expect(style.status == 200 && style.header("Content-Type")?.hasPrefix("text/css") == true)
            #expect(try await emulator.get("/_emulator/ui/apps/no-such-app").status == 404)
            #expect(try await emulator.get("/_emulator/ui/users/\(UUID().uuidString)").status == 404)
            #expect(try await emulator.get("/_emulator/ui/log/999").status == 404)
        }
    }

    @Test("tenants and applications: client ids, redirect URIs, roles and scopes shown, secrets masked")
    func overview() async throws {
        try await TestEmulator.with { emulator in
            let html = try await DashboardSession(emulator: emulator).page("/_emulator/").body
            let ids = emulator.ids
            for text in [
                ids.contosoTenant, "contoso.onmicrosoft.com", ids.publicClient, ids.confidentialClient,
                "ToDoList.Read", "ToDoList.Read.All", "http://localhost", "External ID",
            ] {
                #expect(html.contains(text), "the overview lacks \(text)")
            }
            #expect(!html.contains(ids.confidentialSecret))
            #expect(html.contains("•••• (\(ids.confidentialSecret.count) characters)"))
        }
    }

    @Test("connect your app: each client's snippet with the app's id and the emulator's authority, no secret")
    func connectSnippets() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            let ids = emulator.ids
            let authority = "\(emulator.base)/contoso.onmicrosoft.com"
            let publicPage = Page.unescape(try await dashboard.page("/_emulator/ui/apps/\(ids.publicClient)").body)
            for text in [
                "PublicClientApplicationConfiguration(", "acquireTokenInteractively",
                "MSALPublicClientApplicationConfig(",
                "CFBundleURLSchemes", #""authority_url": "\#(authority)""#, "msal.PublicClientApplication(",
                "InteractiveBrowserCredential(", "@azure/msal-node", #"knownAuthorities: [""#,
                "PublicClientApplicationBuilder.Create", "az cloud register", "az login --use-device-code",
                #"clientID: "\#(ids.publicClient)""#, authority,
            ] {
                #expect(publicPage.contains(text), "the public client's page lacks \(text)")
            }
            let daemonPage = Page.unescape(
                try await dashboard.page("/_emulator/ui/apps/\(ids.confidentialClient)").body)
            for text in [
                "ConfidentialClientApplicationConfiguration(", "acquireTokenForClient", "ClientSecretCredential(",
                "acquireTokenByClientCredential", "ConfidentialClientApplicationBuilder",
                "az login --service-principal",
                #"os.environ["CLIENT_SECRET"]"#, "api://b7c4e1a9-6d2f-4e8b-a3c5-1f9d0e7b2a64/.default",
            ] {
                #expect(daemonPage.contains(text), "the daemon's page lacks \(text)")
            }
            #expect(!daemonPage.contains(ids.confidentialSecret))
            #expect(!daemonPage.contains("REQUESTS_CA_BUNDLE"), "no CA without --tls")
        }
    }

    @Test("over TLS the overview shows the CA file and how to trust it, per program and with `identity-emulator trust`")
    func trustOverTLS() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let serveTLS: (inout EmulatorConfiguration) -> Void = { $0.tlsDirectory = folder }
        try await TestEmulator.with(serveTLS) { emulator in
            let html = try await DashboardSession(emulator: emulator).page("/_emulator/").body
            #expect(html.contains("identity-emulator trust"))
            #expect(html.contains("HTTPS"))
            // The instructions themselves, for the CA file the emulator serves with.
            let ca = try #require(emulator.running.caCertificateFile).path
            #expect(html.contains("The CA certificate: <code>\(ca)</code>"), "\(html)")
            #expect(html.contains("NODE_EXTRA_CA_CERTS=\(ca)"))
            #expect(html.contains("curl --cacert \(ca)"))
        }
    }

    @Test("users: added on the page, then edited, their password reset, disabled and enabled, as sign-ins see it")
    func userLifecycle() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            let token = try await dashboard.token()
            let upn = "pat@contoso.onmicrosoft.com"
            let added = try await dashboard.post(
                "/_emulator/ui/users",
                [
                    ("tenant", emulator.ids.contosoTenant), ("userPrincipalName", upn), ("displayName", "Pat Doe"),
                    ("password", "Pat-Pass-1"),
                ], token: token)
            #expect(added.status == 302)
            let id = try #require(DashboardSession.userID(inRedirect: added.header("Location")))
            #expect(try await emulator.passwordGrant(user: upn, password: "Pat-Pass-1").status == 200)
            let userPage = try await dashboard.page("/_emulator/ui/users/\(id)?done=user-added").body
            #expect(userPage.contains("The user was added."))
            #expect(userPage.contains(upn))

            let duplicate = try await dashboard.post(
                "/_emulator/ui/users",
                [
                    ("tenant", emulator.ids.contosoTenant), ("userPrincipalName", upn), ("displayName", "Pat again"),
                    ("password", "x"),
                ], token: token)
            #expect(duplicate.status == 400 && duplicate.body.contains("duplicate user"))
            let badTenant = try await dashboard.post(
                "/_emulator/ui/users",
                [
                    ("tenant", UUID().uuidString), ("userPrincipalName", "x@contoso.onmicrosoft.com"),
                    ("displayName", "X"), ("password", "x"),
                ], token: token)
            #expect(badTenant.status == 400 && badTenant.body.contains("names no tenant"))

            let base = "/_emulator/ui/users/\(id)"
            #expect(
                try await dashboard.post(
                    base + "/profile", [("displayName", "Pat Smith"), ("jobTitle", "Tester")], token: token
                ).status == 302)
            let export = try await emulator.get("/_emulator/export").body
            #expect(export.contains("Pat Smith") && export.contains("Tester"))

            #expect(
                try await dashboard.post(base + "/password", [("password", "Pat-Pass-2")], token: token).status == 302)
            #expect(try await emulator.passwordGrant(user: upn, password: "Pat-Pass-1").status == 400)
            #expect(try await emulator.passwordGrant(user: upn, password: "Pat-Pass-2").status == 200)

            #expect(try await dashboard.post(base + "/enabled", [("enabled", "false")], token: token).status == 302)
            let refused = try await emulator.passwordGrant(user: upn, password: "Pat-Pass-2")
            #expect(try refused.errorCode == 50057)
            #expect(try await dashboard.page(base).body.contains("disabled"))
            #expect(try await dashboard.post(base + "/enabled", [("enabled", "true")], token: token).status == 302)
            #expect(try await emulator.passwordGrant(user: upn, password: "Pat-Pass-2").status == 200)
        }
    }

    @Test("a user's sessions and refresh tokens are listed, masked, and revoked by the page's button")
    func sessionsAndRevocation() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            let granted = try await emulator.passwordGrant()
            let refreshToken = try #require(try granted.string("refresh_token"))
            let browser = ScriptedBrowser(emulator)
            let signIn = try await browser.page(AuthorizationRequest().path)
            _ = try await browser.submitForRedirect(
                signIn, button: "signin",
                fields: ["username": "MeganB@contoso.onmicrosoft.com", "password": "Megan-Demo-Pass1"])

            let megan = try #require(
                emulator.running.directory.users.first { $0.userPrincipalName == "MeganB@contoso.onmicrosoft.com" }
            ).id
            try await emulator.setClockOffset(60)  // a revocation applies to what was issued before it
            let page = try await dashboard.page("/_emulator/ui/users/\(megan)").body
            #expect(page.contains(#"id="refresh-tokens""#) && page.contains("msal-demo"))
            #expect(page.contains(#"id="sessions""#))
            #expect(!page.contains(refreshToken))
            #expect(!page.contains(try #require(browser.sessionCookie)))

            let token = try await dashboard.token()
            let revoked = try await dashboard.post("/_emulator/ui/users/\(megan)/revoke", [], token: token)
            #expect(revoked.status == 302)
            let refresh = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.publicClient),
                    ("refresh_token", refreshToken), ("scope", "User.Read"),
                ])
            #expect(try refresh.errorCode == 50173)
            let after = try await dashboard.page("/_emulator/ui/users/\(megan)").body
            #expect(after.contains(#"id="no-sessions""#) && after.contains(#"id="no-refresh-tokens""#))
        }
    }

    @Test("MFA: the requirement set and a method added and removed on the page, checked as the directory's")
    func mfaMethods() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            let token = try await dashboard.token()
            let jane = try #require(
                emulator.running.directory.users.first { $0.userPrincipalName == "jane@example.com" })
            let base = "/_emulator/ui/users/\(jane.id)"
            #expect(try await dashboard.post(base + "/mfa", [("mfaRequired", "required")], token: token).status == 302)
            let bad = try await dashboard.post(
                base + "/methods", [("channel", "sms"), ("target", "not a phone")], token: token)
            #expect(bad.status == 400 && bad.body.contains("E.164"))
            #expect(
                try await dashboard.post(
                    base + "/methods", [("channel", "sms"), ("target", "+15555550199")], token: token
                ).status == 302)
            let export = try await emulator.get("/_emulator/export").body
            #expect(export.contains("+15555550199"))
            #expect(export.contains(#""mfaRequired":true"#) || export.contains(#""mfaRequired" : true"#))
            let page = try await dashboard.page(base).body
            let methodID = try #require(
                page.range(of: #"id="remove-"#).map { String(page[$0.upperBound...].prefix { $0 != "\"" }) })
            #expect(
                try await dashboard.post(base + "/methods/\(methodID)/delete", [], token: token).status == 302)
            #expect(!(try await emulator.get("/_emulator/export").body.contains("+15555550199")))
        }
    }

    @Test("faults, clock, keys and reset: each form does what the admin API's route does")
    func controls() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            let token = try await dashboard.token()
            let armed = try await dashboard.post(
                "/_emulator/ui/scenarios",
                [("route", "token"), ("fault", "throttle"), ("count", "1"), ("retryAfter", "7")], token: token)
            #expect(armed.status == 302)
            #expect(try await dashboard.page("/_emulator/ui/controls").body.contains(#"id="scenarios""#))
            let throttled = try await emulator.passwordGrant()
            #expect(throttled.status == 429 && throttled.header("Retry-After") == "7")
            let zero = try await dashboard.post(
                "/_emulator/ui/scenarios", [("route", "token"), ("fault", "throttle"), ("count", "0")], token: token)
            #expect(zero.status == 400)
            _ = try await dashboard.post(
                "/_emulator/ui/scenarios", [("route", "graph"), ("fault", "serverError")], token: token)
            #expect(try await dashboard.post("/_emulator/ui/scenarios/clear", [], token: token).status == 302)
            #expect(try await emulator.get("/_emulator/scenarios").body.filter { !$0.isWhitespace } == "[]")

            #expect(
                try await dashboard.post("/_emulator/ui/clock", [("offsetSeconds", "3600")], token: token).status == 302
            )
            #expect(try await emulator.get("/_emulator/clock").json["offsetSeconds"] as? Int == 3600)
            #expect(
                try await dashboard.post("/_emulator/ui/clock", [("offsetSeconds", "1e300")], token: token).status
                    == 400)

            let kidBefore = try await emulator.get("/_emulator/ui/controls").body
            #expect(try await dashboard.post("/_emulator/ui/keys/rotate", [], token: token).status == 302)
            let jwks = try await emulator.get("/common/discovery/v2.0/keys").body
            #expect(jwks.components(separatedBy: #""kid""#).count == 3, "two keys published after a rotation")
            #expect(try await emulator.get("/_emulator/ui/controls").body != kidBefore)

            _ = try await dashboard.post(
                "/_emulator/ui/users",
                [
                    ("tenant", emulator.ids.contosoTenant), ("userPrincipalName", "gone@contoso.onmicrosoft.com"),
                    ("displayName", "Gone"), ("password", "Gone-Pass-1"),
                ], token: token)
            #expect(try await dashboard.post("/_emulator/ui/reset", [], token: token).status == 302)
            #expect(!(try await emulator.get("/_emulator/export").body.contains("gone@contoso.onmicrosoft.com")))
            #expect(try await emulator.get("/_emulator/clock").json["offsetSeconds"] as? Int == 0)
        }
    }

    @Test("token inspector: header and claims explained, times as dates, the signature checked against the keys")
    func inspector() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            let token = try await dashboard.token()
            let accessToken = try #require(try await emulator.passwordGrant().string("access_token"))
            let page = try await dashboard.post("/_emulator/ui/inspector", [("token", accessToken)], token: token)
            #expect(page.status == 200)
            #expect(page.body.contains("Signature verified"))
            #expect(page.body.contains("The subject&#39;s object id in the tenant"))
            #expect(page.body.contains("<code>exp</code>") && page.body.contains(" UTC)"))
            #expect(page.body.contains("<code>kid</code>"))

            var parts = accessToken.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            let tampered = try await dashboard.post(
                "/_emulator/ui/inspector", [("token", parts.joined(separator: "."))], token: token)
            #expect(tampered.body.contains("Signature not verified"))
            let garbage = try await dashboard.post("/_emulator/ui/inspector", [("token", "not-a-token")], token: token)
            #expect(garbage.body.contains(#"id="inspection-error""#))

            let minted = try await dashboard.post(
                "/_emulator/ui/inspector/mint",
                [
                    ("tenant", emulator.ids.contosoTenant), ("api", "api://b7c4e1a9-6d2f-4e8b-a3c5-1f9d0e7b2a64"),
                    ("user", "AdeleV@contoso.onmicrosoft.com"), ("scopes", "ToDoList.Read"),
                ], token: token)
            #expect(minted.status == 200)
            #expect(
                minted.body.contains("Signature verified") && minted.body.contains("AdeleV@contoso.onmicrosoft.com"))
            let unknown = try await dashboard.post(
                "/_emulator/ui/inspector/mint",
                [
                    ("tenant", emulator.ids.contosoTenant), ("api", "api://nothing"),
                    ("user", "AdeleV@contoso.onmicrosoft.com"),
                ],
                token: token)
            #expect(unknown.status == 400 && unknown.body.contains("no application"))
        }
    }

    @Test("the request log lists method, path, grant, client, user and status; a row opens the request and answer")
    func requestLog() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            #expect(try await dashboard.page("/_emulator/ui/log").body.contains(#"id="empty-log""#))
            #expect(try await emulator.passwordGrant().status == 200)
            let log = try await dashboard.page("/_emulator/ui/log").body
            for text in [
                "/organizations/oauth2/v2.0/token", "password", emulator.ids.publicClient,
                "MeganB@contoso.onmicrosoft.com", "<td>200</td>", #"href="/_emulator/ui/log/1""#,
            ] {
                #expect(log.contains(text), "the log lacks \(text)")
            }
            #expect(try await emulator.get("/_emulator/ui/log-table").body.contains(#"id="requests""#))
            let exchange = try await dashboard.page("/_emulator/ui/log/1").body
            #expect(exchange.contains("grant_type") && exchange.contains("token_type") && exchange.contains("Bearer"))
            #expect(exchange.contains(#"<strong id="status">200</strong>"#))
        }
    }

    @Test("the outbox lists the one-time codes sent")
    func outbox() async throws {
        try await TestEmulator.with { emulator in
            let dashboard = DashboardSession(emulator: emulator)
            #expect(try await dashboard.page("/_emulator/ui/outbox").body.contains(#"id="empty-outbox""#))
            let started = try await emulator.post(
                "/contosocustomers.onmicrosoft.com/signup/v1.0/start",
                form: [
                    ("client_id", emulator.ids.externalPublicClient), ("username", "new.customer@example.com"),
                    ("challenge_type", "oob password redirect"),
                ])
            let continuation = try #require(try started.string("continuation_token"), "\(started.body)")
            _ = try await emulator.post(
                "/contosocustomers.onmicrosoft.com/signup/v1.0/challenge",
                form: [
                    ("client_id", emulator.ids.externalPublicClient), ("continuation_token", continuation),
                    ("challenge_type", "oob password redirect"),
                ])
            let outbox = try await emulator.get("/_emulator/outbox").json["messages"] as? [[String: any Sendable]]
            let code = try #require(outbox?.first?["code"] as? String)
            let page = try await dashboard.page("/_emulator/ui/outbox").body
            #expect(page.contains("new.customer@example.com") && page.contains(code))
        }
    }
}
