import Foundation
import IdentityEmulator
import Testing

@Suite("Regressions from review: session_state, fragments, admin CSRF, logout binding, discovery ports, Graph faults")
struct ReviewRegressionTests {
    @Test("session_state is an opaque id, not the SSO cookie, and only comes with client_info=1")
    func sessionStateIsNotTheCookie() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            let location = try await emulator.signInInteractively(AuthorizationRequest(), browser: browser)
            let state = try #require(redirectParameters(location)["session_state"])
            #expect(state != browser.sessionCookie)
            let plain = AuthorizationRequest().path.replacingOccurrences(of: "&client_info=1", with: "")
            guard case .redirect(let again) = try await browser.open(plain) else {
                Issue.record("expected SSO redirect")
                return
            }
            #expect(redirectParameters(again)["session_state"] == nil)
            #expect(redirectParameters(again)["client_info"] == nil)
        }
    }

    @Test("a redirect URI with a fragment is not registered")
    func fragmentRejected() async throws {
        try await TestEmulator.with { emulator in
            var request = AuthorizationRequest()
            request.redirectURI = "http://localhost:5000/#steal"
            let result = try await emulator.get(request.path)
            #expect(result.status == 400)
            #expect(result.header("Location") == nil)
        }
    }

    @Test("form_post errors are posted back, not put in a query")
    func formPostErrors() async throws {
        try await TestEmulator.with { emulator in
            var request = AuthorizationRequest()
            request.responseMode = "form_post"
            request.prompt = "none"
            let result = try await emulator.get(request.path)
            #expect(result.status == 200)
            let form = try #require(Page(status: 200, html: result.body).forms.first)
            #expect(form.fields.contains { $0.name == "error" && $0.value == "login_required" })
        }
    }

    @Test("admin changes need JSON (no cross-site form posts); absurd clock offsets are refused")
    func adminGuards() async throws {
        try await TestEmulator.with { emulator in
            let forged = try await emulator.post("/_emulator/reset", form: [("x", "y")])
            #expect(forged.status == 415)
            let absurd = try await emulator.post("/_emulator/clock", json: #"{"offsetSeconds":1e300}"#)
            #expect(absurd.status == 400)
            #expect(try await emulator.get("/_emulator/clock").status == 200)
        }
    }

    @Test("logout redirects only to a URI registered for the app named by client_id")
    func logoutBinding() async throws {
        try await TestEmulator.with { emulator in
            let unnamed = try await emulator.get(
                "/common/oauth2/v2.0/logout?post_logout_redirect_uri=http%3A%2F%2Flocalhost%3A4000")
            #expect(unnamed.header("Location") == nil)
            let daemon = try await emulator.get(
                "/common/oauth2/v2.0/logout?"
                    + Form.encode([
                        ("client_id", emulator.ids.confidentialClient),
                        ("post_logout_redirect_uri", "http://localhost:4000"),
                    ]))
            #expect(daemon.header("Location") == nil)
        }
    }

    @Test("instance discovery names host:port, and refuses another port")
    func instanceDiscoveryPorts() async throws {
        try await TestEmulator.with { emulator in
            let port = emulator.running.port
            let ok = try await emulator.get(
                "/common/discovery/instance?"
                    + Form.encode([
                        ("api-version", "1.1"),
                        ("authorization_endpoint", "http://localhost:\(port)/common/oauth2/v2.0/authorize"),
                    ]))
            let metadata = try #require((try ok.json["metadata"] as? [any Sendable])?.first as? [String: any Sendable])
            #expect(metadata["preferred_network"] as? String == "localhost:\(port)")
            #expect((metadata["aliases"] as? [String])?.contains("127.0.0.1:\(port)") == true)
            let other = try await emulator.get(
                "/common/discovery/instance?"
                    + Form.encode([
                        ("api-version", "1.1"),
                        ("authorization_endpoint", "http://127.0.0.1:1/common/oauth2/v2.0/authorize"),
                    ]))
            #expect(other.status == 400)
        }
    }

    @Test("Graph faults use Graph's error shape")
    func graphFaultShape() async throws {
        try await TestEmulator.with { emulator in
            try await emulator.scenario("graph", "throttle", retryAfter: "10")
            let result = try await emulator.get("/v1.0/me")
            #expect(result.status == 429)
            #expect(result.header("Retry-After") == "10")
            let error = try #require(try result.json["error"] as? [String: any Sendable])
            #expect(error["code"] as? String == "TooManyRequests")
            #expect(error["innerError"] != nil)
        }
    }

    @Test("device authorization keeps the client's claims: a cp1 device-code client gets refresh_in")
    func deviceCodeClaims() async throws {
        try await TestEmulator.with { emulator in
            let start = try await emulator.post(
                "/organizations/oauth2/v2.0/devicecode",
                form: [
                    ("client_id", emulator.ids.publicClient), ("scope", "User.Read openid profile offline_access"),
                    ("claims", #"{"access_token":{"xms_cc":{"values":["cp1"]}}}"#),
                ])
            let browser = ScriptedBrowser(emulator)
            let signIn = try await browser.submitForPage(
                try await browser.page("/devicelogin"), button: "next",
                fields: ["otc": try #require(try start.string("user_code"))])
            _ = try await browser.submitForPage(
                signIn, button: "signin",
                fields: ["username": "MeganB@contoso.onmicrosoft.com", "password": "Megan-Demo-Pass1"])
            let tokens = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "device_code"), ("client_id", emulator.ids.publicClient),
                    ("device_code", try #require(try start.string("device_code"))),
                ])
            #expect(try tokens.json["refresh_in"] != nil)
        }
    }
}
