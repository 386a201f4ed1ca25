import Foundation
import IdentityEmulator
import Testing

@Suite("Authorize: sign-in pages, SSO, prompts, consent, redirects")
struct AuthorizeTests {
    @Test("sign-in redirects with code, client_info, state and session_state; the code redeems to verifiable tokens")
    func authorizationCodeFlow() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            let request = AuthorizationRequest()
            let location = try await emulator.signInInteractively(request, browser: browser)
            #expect(location.hasPrefix("http://localhost:53123/?code="))
            let params = redirectParameters(location)
            #expect(params["state"] == request.state)
            #expect(params["session_state"]?.isEmpty == false)
            let clientInfo = try #require(params["client_info"])
            #expect(!clientInfo.contains("="))
            let info =
                try JSONSerialization.jsonObject(
                    with: try #require(JWTInspection.base64URLDecode(Substring(clientInfo)))) as? [String: String]
            #expect(info == ["uid": "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f", "utid": Directory.DemoIDs.contosoTenant])

            let result = try await emulator.token(
                request.tenant, request.redemption(code: try #require(params["code"])))
            #expect(result.status == 200)
            try Golden.expectShape(result.body, matches: "token-success")
            #expect(try result.string("scope") == "User.Read profile openid email")
            #expect(result.header("Cache-Control") == "no-store, no-cache")
            #expect(result.header("x-ms-request-id") != nil)

            let idToken = try #require(try result.string("id_token"))
            let jwks = try await emulator.get("/common/discovery/v2.0/keys").json
            #expect(try JWTInspection.verifies(idToken, jwks: jwks))
            #expect(try JWTInspection.verifies(try #require(try result.string("access_token")), jwks: jwks))
            let header = try JWTInspection.header(idToken)
            #expect(header["alg"] as? String == "RS256")
            #expect(header["typ"] as? String == "JWT")
            let claims = try JWTInspection.claims(idToken)
            #expect(claims["nonce"] as? String == request.nonce)
            #expect(claims["aud"] as? String == request.clientID)
            #expect(claims["iss"] as? String == "\(emulator.base)/\(Directory.DemoIDs.contosoTenant)/v2.0")
            #expect(claims["tid"] as? String == Directory.DemoIDs.contosoTenant)
            #expect(claims["oid"] as? String == "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f")
            #expect(claims["preferred_username"] as? String == "MeganB@contoso.onmicrosoft.com")
            #expect(claims["ver"] as? String == "2.0")
            #expect(Array(try JWTInspection.claims(idToken).keys).count >= 12)
        }
    }

    @Test("a second request in the same browser signs in silently (SSO); prompt=none works too")
    func singleSignOn() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            _ = try await emulator.signInInteractively(AuthorizationRequest(), browser: browser)
            #expect(browser.sessionCookie != nil)
            guard case .redirect(let again) = try await browser.open(AuthorizationRequest().path) else {
                Issue.record("SSO should redirect without a page")
                return
            }
            #expect(redirectParameters(again)["code"] != nil)
            var silent = AuthorizationRequest()
            silent.prompt = "none"
            guard case .redirect(let none) = try await browser.open(silent.path) else {
                Issue.record("prompt=none showed a page")
                return
            }
            #expect(redirectParameters(none)["code"] != nil)
        }
    }

    @Test("prompt=none without a session redirects with login_required")
    func promptNoneWithoutSession() async throws {
        try await TestEmulator.with { emulator in
            var request = AuthorizationRequest()
            request.prompt = "none"
            guard case .redirect(let location) = try await ScriptedBrowser(emulator).open(request.path) else {
                Issue.record("expected a redirect")
                return
            }
            let params = redirectParameters(location)
            #expect(params["error"] == "login_required")
            #expect(params["error_description"]?.hasPrefix("AADSTS50058") == true)
            #expect(params["state"] == request.state)
        }
    }

    @Test("prompt=login asks for credentials despite the session; prompt=select_account shows the picker")
    func promptLoginAndSelectAccount() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            _ = try await emulator.signInInteractively(AuthorizationRequest(), browser: browser)
            var login = AuthorizationRequest()
            login.prompt = "login"
            let page = try await browser.page(login.path)
            #expect(page.forms.contains { $0.buttons.contains { $0.id == "signin" } })

            var select = AuthorizationRequest()
            select.prompt = "select_account"
            let picker = try await browser.page(select.path)
            #expect(picker.contains("Pick an account"))
            #expect(picker.contains("MeganB@contoso.onmicrosoft.com"))
            let form = try #require(
                picker.forms.first { $0.buttons.contains { $0.value == "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f" } })
            let result = try await emulator.post(
                form.action,
                form: form.fields.map { ($0.name, $0.value) } + [("account", "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f")],
                headers: [
                    (
                        "Cookie",
                        "ESTSAUTH=\(try #require(browser.sessionCookie)); buid=\(try #require(browser.browserCookie))"
                    )
                ])
            #expect(result.status == 302)
            #expect(redirectParameters(result.header("Location") ?? "")["state"] == select.state)
        }
    }

    @Test("scopes not yet consented show the consent page; prompt=consent shows it anyway")
    func consent() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            var request = AuthorizationRequest()
            request.scope = "api://\(Directory.DemoIDs.api1)/ToDoList.Read openid profile offline_access"
            let signIn = try await browser.page(request.path)
            let consent = try await browser.submitForPage(
                signIn, button: "signin",
                fields: ["username": "MeganB@contoso.onmicrosoft.com", "password": "Megan-Demo-Pass1"])
            #expect(consent.contains("Permissions requested"))
            #expect(consent.contains("ToDoList.Read"))
            let location = try await browser.submitForRedirect(consent, button: "accept")
            let code = try #require(redirectParameters(location)["code"])
            let result = try await emulator.token(request.tenant, request.redemption(code: code))
            // ESTS echoes the OpenID scopes only for Graph; another API's token lists its own scopes.
            #expect(try result.string("scope") == "api://\(Directory.DemoIDs.api1)/ToDoList.Read")

            var again = AuthorizationRequest()
            again.prompt = "consent"
            let forced = try await browser.page(again.path)
            #expect(forced.contains("Permissions requested"))
        }
    }

    @Test("cancel redirects with access_denied and the state")
    func cancel() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            let request = AuthorizationRequest()
            let location = try await browser.submitForRedirect(try await browser.page(request.path), button: "cancel")
            let params = redirectParameters(location)
            #expect(params["error"] == "access_denied")
            #expect(params["state"] == request.state)
        }
    }

    @Test("a wrong password stays on the sign-in page with AADSTS50126")
    func wrongPassword() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            let page = try await browser.page(AuthorizationRequest().path)
            let again = try await browser.submitForPage(
                page, button: "signin",
                fields: ["username": "MeganB@contoso.onmicrosoft.com", "password": "wrong"])
            #expect(again.text(id: "error")?.contains("AADSTS50126") == true)
        }
    }

    @Test(
        "an unregistered redirect URI shows AADSTS50011 and never redirects",
        arguments: [
            "https://evil.example/callback", "http://localhost:8080/other-path", "http://evil.localhost.example",
        ])
    func unregisteredRedirect(uri: String) async throws {
        try await TestEmulator.with { emulator in
            var request = AuthorizationRequest()
            request.redirectURI = uri
            let result = try await emulator.get(request.path)
            #expect(result.status == 400)
            #expect(result.header("Location") == nil)
            #expect(result.body.contains("AADSTS50011"))
        }
    }

    @Test("loopback redirect URIs match on any port; a path-less one comes back with '/'")
    func loopbackPortIgnored() async throws {
        try await TestEmulator.with { emulator in
            for uri in ["http://localhost:1234", "http://127.0.0.1:50000", "http://localhost"] {
                var request = AuthorizationRequest()
                request.redirectURI = uri
                let location = try await emulator.signInInteractively(request, browser: ScriptedBrowser(emulator))
                #expect(location.hasPrefix(uri + "/?code="))
            }
        }
    }

    @Test("response_mode=fragment puts the result in the fragment; form_post renders a form")
    func responseModes() async throws {
        try await TestEmulator.with { emulator in
            var fragment = AuthorizationRequest()
            fragment.responseMode = "fragment"
            let location = try await emulator.signInInteractively(fragment, browser: ScriptedBrowser(emulator))
            #expect(location.hasPrefix("http://localhost:53123/#code="))

            var post = AuthorizationRequest()
            post.responseMode = "form_post"
            let html = try await emulator.signInInteractively(post, browser: ScriptedBrowser(emulator))
            let form = try #require(Page(status: 200, html: html).forms.first)
            #expect(form.action == "http://localhost:53123/")
            let fields = Dictionary(uniqueKeysWithValues: form.fields.map { ($0.name, $0.value) })
            #expect(fields["state"] == post.state)
            #expect(fields["code"] != nil)
            #expect(fields["client_info"] != nil)
        }
    }

    @Test("PKCE: plain works; a wrong verifier gets AADSTS501481; the code is single use (54005)")
    func pkce() async throws {
        try await TestEmulator.with { emulator in
            var plain = AuthorizationRequest()
            plain.challengeMethod = "plain"
            #expect(try await emulator.authorizationCodeTokens(plain, browser: ScriptedBrowser(emulator)).status == 200)

            let request = AuthorizationRequest()
            let location = try await emulator.signInInteractively(request, browser: ScriptedBrowser(emulator))
            let code = try #require(redirectParameters(location)["code"])
            var bad = request.redemption(code: code)
            bad.removeAll { $0.0 == "code_verifier" }
            bad.append(("code_verifier", "not-the-verifier-not-the-verifier-not-the-verif"))
            let mismatch = try await emulator.token(request.tenant, bad)
            #expect(mismatch.status == 400)
            #expect(try mismatch.json["error_codes"] as? [Int] == [501481])
            let replay = try await emulator.token(request.tenant, request.redemption(code: code))
            #expect(try replay.json["error_codes"] as? [Int] == [54005])
        }
    }

    @Test("prompt=create on the External ID tenant signs a new user up with an emailed code")
    func signUp() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            var request = AuthorizationRequest()
            request.tenant = "contosocustomers.onmicrosoft.com"
            request.clientID = Directory.DemoIDs.externalPublicClient
            request.prompt = "create"
            let page = try await browser.page(request.path)
            let verify = try await browser.submitForPage(
                page, button: "next",
                fields: [
                    "email": "new.customer@example.com", "displayName": "New Customer", "password": "Str0ng-Passw0rd",
                ])
            #expect(verify.contains("Verify your email"))
            let outbox = try await emulator.get("/_emulator/outbox").json
            let message = try #require((outbox["messages"] as? [any Sendable])?.last as? [String: any Sendable])
            #expect(message["to"] as? String == "new.customer@example.com")
            let code = try #require(message["code"] as? String)
            #expect(code.count == 8)
            let wrong = try await browser.submitForPage(
                verify, button: "verify", fields: ["code": "00000000" == code ? "11111111" : "00000000"])
            #expect(wrong.text(id: "error") != nil)
            let location = try await browser.submitForRedirect(wrong, button: "verify", fields: ["code": code])
            let tokens = try await emulator.token(
                request.tenant, request.redemption(code: try #require(redirectParameters(location)["code"])))
            let claims = try JWTInspection.claims(try #require(try tokens.string("id_token")))
            #expect(claims["preferred_username"] as? String == "new.customer@example.com")
            #expect(claims["tid"] as? String == Directory.DemoIDs.externalTenant)
        }
    }

    @Test("a guest signs into the other tenant with that tenant's object id and the home client_info")
    func guestSignIn() async throws {
        try await TestEmulator.with { emulator in
            var request = AuthorizationRequest()
            request.tenant = "fabrikam.onmicrosoft.com"
            let result = try await emulator.authorizationCodeTokens(request, browser: ScriptedBrowser(emulator))
            let claims = try JWTInspection.claims(try #require(try result.string("id_token")))
            #expect(claims["tid"] as? String == Directory.DemoIDs.fabrikamTenant)
            #expect(claims["oid"] as? String == "a81f3c5e-7d2b-4e96-b0a4-c3e5f7a9d1b2")
            let encodedInfo = try #require(try result.string("client_info"))
            let info = try #require(JWTInspection.base64URLDecode(Substring(encodedInfo)))
            #expect(String(decoding: info, as: UTF8.self).contains(Directory.DemoIDs.contosoTenant))
        }
    }

    @Test(
        "authorize errors: unknown client (700016) and missing client_id (900144) show a page; bad response_type redirects"
    )
    func authorizeErrors() async throws {
        try await TestEmulator.with { emulator in
            var unknown = AuthorizationRequest()
            unknown.clientID = "11111111-0000-0000-0000-000000000000"
            let page = try await emulator.get(unknown.path)
            #expect(page.status == 400)
            #expect(page.body.contains("AADSTS700016"))
            let missing = try await emulator.get("/common/oauth2/v2.0/authorize?response_type=code")
            #expect(missing.body.contains("AADSTS900144"))
            let token = AuthorizationRequest().path.replacingOccurrences(
                of: "response_type=code", with: "response_type=token")
            let redirect = try await emulator.get(token)
            #expect(redirectParameters(redirect.header("Location") ?? "")["error"] == "unsupported_response_type")
        }
    }
}
