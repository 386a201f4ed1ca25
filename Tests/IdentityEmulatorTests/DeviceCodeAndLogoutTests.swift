import Foundation
import IdentityEmulator
import Testing

@Suite("Device code flow and logout")
struct DeviceCodeAndLogoutTests {
    private func startDeviceCode(_ emulator: TestEmulator) async throws -> HTTPResult {
        try await emulator.post(
            "/organizations/oauth2/v2.0/devicecode",
            form: [
                ("client_id", emulator.ids.publicClient), ("scope", "User.Read openid profile offline_access"),
            ])
    }

    private func poll(_ emulator: TestEmulator, deviceCode: String, grantType: String) async throws -> HTTPResult {
        try await emulator.token(
            "organizations",
            [
                ("grant_type", grantType), ("client_id", emulator.ids.publicClient), ("device_code", deviceCode),
                ("client_info", "1"),
            ])
    }

    @Test(
        "device code: pending until the user signs in at /devicelogin, then tokens (both grant spellings)",
        arguments: ["urn:ietf:params:oauth:grant-type:device_code", "device_code"])
    func deviceCodeFlow(grantType: String) async throws {
        try await TestEmulator.with { emulator in
            let start = try await startDeviceCode(emulator)
            #expect(start.status == 200)
            try Golden.expectShape(start.body, matches: "device-code")
            let userCode = try #require(try start.string("user_code"))
            let deviceCode = try #require(try start.string("device_code"))
            #expect(userCode.count == 9)
            #expect(try start.string("verification_uri") == "\(emulator.base)/devicelogin")
            #expect(try start.json["expires_in"] as? Int == 900)
            #expect(try start.string("message")?.contains(userCode) == true)

            let pending = try await poll(emulator, deviceCode: deviceCode, grantType: grantType)
            #expect(pending.status == 400)
            try Golden.expectShape(pending.body, matches: "authorization-pending")
            #expect(try pending.string("error") == "authorization_pending")

            let browser = ScriptedBrowser(emulator)
            let entry = try await browser.page("/devicelogin")
            let signIn = try await browser.submitForPage(entry, button: "next", fields: ["otc": userCode])
            let done = try await browser.submitForPage(
                signIn, button: "signin",
                fields: [
                    "username": "MeganB@contoso.onmicrosoft.com", "password": "Megan-Demo-Pass1",
                ])
            #expect(done.text(id: "message")?.contains("You have signed in") == true)

            let tokens = try await poll(emulator, deviceCode: deviceCode, grantType: grantType)
            #expect(tokens.status == 200)
            try Golden.expectShape(tokens.body, matches: "token-success")
            let again = try await poll(emulator, deviceCode: deviceCode, grantType: grantType)
            #expect(try again.string("error") == "bad_verification_code")
        }
    }

    @Test("device code errors: declined, expired, unknown code, slow_down on request")
    func deviceCodeErrors() async throws {
        try await TestEmulator.with { emulator in
            let grant = "urn:ietf:params:oauth:grant-type:device_code"
            #expect(
                try await poll(emulator, deviceCode: "nonsense", grantType: grant).string("error")
                    == "bad_verification_code")

            let declined = try await startDeviceCode(emulator)
            let browser = ScriptedBrowser(emulator)
            let signIn = try await browser.submitForPage(
                try await browser.page("/devicelogin"), button: "next",
                fields: ["otc": try #require(try declined.string("user_code"))])
            _ = try await browser.submitForPage(signIn, button: "cancel")
            let declinedCode = try #require(try declined.string("device_code"))
            #expect(
                try await poll(emulator, deviceCode: declinedCode, grantType: grant).string("error")
                    == "authorization_declined")

            let slow = try await startDeviceCode(emulator)
            let slowCode = try #require(try slow.string("device_code"))
            try await emulator.scenario("token", "slowDown")
            #expect(try await poll(emulator, deviceCode: slowCode, grantType: grant).string("error") == "slow_down")
            #expect(
                try await poll(emulator, deviceCode: slowCode, grantType: grant).string("error")
                    == "authorization_pending")

            try await emulator.setClockOffset(901)
            let expired = try await poll(emulator, deviceCode: slowCode, grantType: grant)
            #expect(try expired.string("error") == "expired_token")
            #expect(try expired.json["error_codes"] as? [Int] == [70019])
        }
    }

    @Test("/devicelogin rejects an unknown code on the page")
    func unknownUserCode() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            let page = try await browser.submitForPage(
                try await browser.page("/devicelogin"), button: "next", fields: ["otc": "NOPE12345"])
            #expect(page.text(id: "error") != nil)
        }
    }

    @Test(
        "logout ends the SSO session and redirects to a registered post_logout_redirect_uri with state",
        arguments: ["GET", "POST"])
    func logout(method: String) async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            _ = try await emulator.signInInteractively(AuthorizationRequest(), browser: browser)
            let cookie = try #require(browser.sessionCookie)
            let query = Form.encode([
                ("client_id", emulator.ids.publicClient), ("post_logout_redirect_uri", "http://localhost:4000"),
                ("state", "bye"),
            ])
            let result =
                method == "GET"
                ? try await emulator.get(
                    "/organizations/oauth2/v2.0/logout?" + query, headers: [("Cookie", "ESTSAUTH=\(cookie)")])
                : try await emulator.post(
                    "/organizations/oauth2/v2.0/logout", form: Form.decode(query).map { ($0.key, $0.value) },
                    headers: [("Cookie", "ESTSAUTH=\(cookie)")])
            #expect(result.status == 302)
            #expect(result.header("Location") == "http://localhost:4000/?state=bye")
            var silent = AuthorizationRequest()
            silent.prompt = "none"
            let after = try await emulator.get(silent.path, headers: [("Cookie", "ESTSAUTH=\(cookie)")])
            #expect(redirectParameters(after.header("Location") ?? "")["error"] == "login_required")
        }
    }

    @Test("logout to an unregistered URI shows the signed-out page instead of redirecting")
    func logoutUnregistered() async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.get(
                "/common/oauth2/v2.0/logout?post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F")
            #expect(result.status == 200)
            #expect(result.header("Location") == nil)
            #expect(result.body.contains("You signed out"))
        }
    }
}
