import AsyncHTTPClient
import Crypto
import EmulatorAutomation
import Foundation
import Hummingbird
import HummingbirdAuth
import HummingbirdTesting
import IdentityEmulator
import MSAL
import MSALHummingbird
import Testing

/// The web app's sign-in routes over plain HTTP: the cookies, a forged or stray redirect, return paths that could
/// send the user elsewhere, and the sessions before and after a sign-in.
@Suite("Web-app sign-in routes", .timeLimit(.minutes(2)))
struct WebAppSignInTests {
    typealias IDs = Directory.DemoIDs

    @Test("sign-in keeps nothing on the server: a sealed, HttpOnly, SameSite=Lax cookie under /auth holds the flow")
    func signInCookie() async throws {
        try await WebAppSite.with { site in
            let response = try await site.request("/auth/signin?returnTo=/profile")
            #expect(response.status == .found)
            let location = try #require(response.headers.first(name: "Location"))
            #expect(location.contains("/oauth2/v2.0/authorize?"))
            #expect(location.contains("code_challenge_method=S256"))
            #expect(location.contains("client_id=\(IDs.webApp)"))
            #expect(WebAppSite.cookie("msal_session", in: response) == nil, "no session before sign-in")
            let cookie = try #require(response.headers["Set-Cookie"].first { $0.hasPrefix("msal_signin=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(cookie.contains("Path=/auth"))
            #expect(cookie.contains("Max-Age=600"))
            #expect(!cookie.contains("Secure"), "served over plain HTTP on loopback")
            #expect(cookie.utf8.count < 4096, "browsers keep 4 KB of a cookie")
            // Sealed: neither the state nor the JSON the flow is made of can be read from it.
            let state = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "state" }?.value)
            let value = try #require(WebAppSite.cookie("msal_signin", in: response))
            #expect(!value.contains(state))
            let bytes = Data(base64Encoded: value.replacingOccurrences(of: "-", with: "+") + "==") ?? Data()
            #expect(!String(decoding: bytes, as: UTF8.self).contains("codeVerifier"))
        }
    }

    @Test(
        "an answer without the sign-in's state, an error included, is ignored and the sign-in still finishes; an error with it ends the sign-in"
    )
    func answersNeedTheState() async throws {
        try await WebAppSite.with { site in
            let started = try await site.start()
            for forged in [
                "error=access_denied&error_description=forged", "error=access_denied&state=forged",
                "code=stolen&state=forged", "code=stolen",
            ] {
                let answer = try await site.request("/auth/redirect?\(forged)", cookies: [started.signInCookie])
                #expect(answer.status == .badRequest, "\(forged)")
                #expect(!answer.headers["Set-Cookie"].contains { $0.hasPrefix("msal_signin=") }, "\(forged)")
            }
            // The same sign-in, after all that: Jane finishes it.
            let user = AutomatedUser(http: site.http, choices: [])
            let session = try await site.signInJane(started, as: user)
            #expect(try await site.signedIn(session))

            // An error with the sign-in's state is the platform's: the sign-in ends, the session stays.
            let next = try await site.start(cookies: [session])
            let denied = try await site.request(
                "/auth/redirect?error=access_denied&state=\(try #require(next.state))",
                cookies: [next.signInCookie, session])
            #expect(denied.status == .unauthorized)
            let removal = try #require(denied.headers["Set-Cookie"].first { $0.hasPrefix("msal_signin=") })
            #expect(removal.contains("Max-Age=0"))
            #expect(try await site.signedIn(session))

            // Without a sign-in cookie there is nothing to finish; a page that needs a token starts one.
            #expect(try await site.request("/auth/redirect?code=x&state=y").status == .badRequest)
            let profile = try await site.request("/profile")
            #expect(profile.status == .found)
            #expect(profile.headers.first(name: "Location") == "/auth/signin?returnTo=%2Fprofile")
        }
    }

    @Test("a sign-in cookie opens only as sealed, with its key and name, for ten minutes")
    func sealedCookie() throws {
        let flow = try JSONDecoder().decode(
            AuthorizationCodeFlow.self,
            from: Data(
                #"{"authorizationURL":"https://login.example/authorize","state":"s","redirectURI":"http://127.0.0.1/auth/redirect","scopes":["User.Read"],"authority":"https://login.example/tenant","nonce":"n","codeVerifier":"v"}"#
                    .utf8))
        let key = SymmetricKey(size: .bits256)
        let cookies = PendingSignInCookie(name: "msal_signin", path: "/auth", secure: false, sameSite: .lax, key: key)
        let started = Date(timeIntervalSince1970: 1_800_000_000)
        let pending = PendingSignIn(flow: flow, returnTo: "/todos", previousSessionID: "old", started: started)
        let value = try cookies.cookie(pending).value
        #expect(cookies.open(value, now: started.addingTimeInterval(599)) == pending)
        #expect(cookies.open(value, now: started.addingTimeInterval(600)) == nil, "expired")
        #expect(cookies.open(value, now: started.addingTimeInterval(-3600)) == nil, "from the future")
        var tampered = Array(value)
        tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
        #expect(cookies.open(String(tampered), now: started) == nil)
        let otherKey = PendingSignInCookie(
            name: "msal_signin", path: "/auth", secure: false, sameSite: .lax, key: SymmetricKey(size: .bits256))
        #expect(otherKey.open(value, now: started) == nil)
        let otherName = PendingSignInCookie(name: "other", path: "/auth", secure: false, sameSite: .lax, key: key)
        #expect(otherName.open(value, now: started) == nil)
        #expect(cookies.open("", now: started) == nil && cookies.open("not-base64!", now: started) == nil)
    }

    @Test("a flood of sign-ins started and never finished writes nothing to the session store")
    func signInFlood() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let app = try ConfidentialClientApplication(
                configuration: ConfidentialClientApplicationConfiguration(
                    clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                    authority: Authority(emulator.authority(IDs.externalTenant).absoluteString)))
            let store = CountingPersistDriver()
            let auth = WebAppAuthentication<WebAppTestContext>(
                app: app, scopes: ["User.Read"], sessionStorage: store,
                publicOrigin: URL(string: "http://127.0.0.1"))
            let router = Router(context: WebAppTestContext.self)
            router.add(middleware: auth.sessionMiddleware)
            auth.addRoutes(to: router)
            try await Application(router: router).test(.router) { client in
                for index in 0..<300 {
                    try await client.execute(uri: "/auth/signin?returnTo=/page/\(index)", method: .get) { response in
                        #expect(response.status == .found)
                        let cookies = response.headers[values: .setCookie]
                        #expect(cookies.count == 1 && cookies[0].hasPrefix("msal_signin="))
                    }
                }
            }
            #expect(await store.writes == 0)
        }
    }

    @Test("a sign-in deletes the browser's previous session: an older id is signed out, even when not sent back")
    func previousSessionDeleted() async throws {
        try await WebAppSite.with { site in
            let user = AutomatedUser(http: site.http, choices: [])
            let first = try await site.signInJane(try await site.start(), as: user)
            #expect(try await site.signedIn(first))

            // Signed in again from the same browser, which sends its session with the redirect.
            let again = try await site.finishWithSSO(
                try await site.start(cookies: [first]), user: user, cookies: [first])
            #expect(again.status == .found)
            let second = "msal_session=" + (try #require(WebAppSite.cookie("msal_session", in: again)))
            #expect(second != first)
            #expect(try await site.signedIn(second))
            #expect(try await site.signedIn(first) == false, "the older id is worth nothing")

            // A redirect that does not bring the session cookie (a cross-site form_post with SameSite=Lax): the
            // session the browser had when the sign-in started ends all the same.
            let third = try await site.finishWithSSO(try await site.start(cookies: [second]), user: user)
            #expect(WebAppSite.cookie("msal_session", in: third) != nil)
            #expect(try await site.signedIn(second) == false)
        }
    }

    @Test(
        "after a real sign-in, a return path a browser could read as another site goes home; a local one goes out as ASCII"
    )
    func hostileReturnPaths() async throws {
        // The returnTo parameter as it appears in the sign-in URL (percent-encoded once), and the Location after
        // sign-in.
        let table: [(String, String)] = [
            ("%2Fprofile%3Fview%3Dfull", "/profile?view=full"),
            ("/%09/evil.example", "/"),  // tab: a browser drops it and reads //evil.example
            ("/%0A/evil.example", "/"),  // newline
            ("/%0D%0A/evil.example", "/"),
            ("%09//evil.example", "/"),
            ("/%5Cevil.example", "/"),  // backslash: read as a slash
            ("%5C%5Cevil.example", "/"),
            ("/%5C/evil.example", "/"),
            ("/%252F/evil.example", "/"),  // an encoded slash, decoded by a later hop
            ("/%252F%252Fevil.example", "/"),
            ("/%25252F/evil.example", "/"),
            ("%2F%2Fevil.example", "/"),
            ("%E3%80%80//evil.example", "/"),  // U+3000 before the slashes
            ("/%E3%80%80/evil.example", "/%E3%80%80/evil.example"),  // U+3000 in a path: encoded
            ("/caf%C3%A9?q=%E2%9C%93", "/caf%C3%A9?q=%E2%9C%93"),
            ("https://evil.example/", "/"),
            ("https:evil.example", "/"),
            ("//evil.example", "/"),
            ("%2F%2F%2Fevil.example", "/"),
            ("javascript:alert(1)", "/"),
        ]
        try await WebAppSite.with { site in
            let user = AutomatedUser(http: site.http, choices: [])
            _ = try await site.signInJane(try await site.start(), as: user)
            for (returnTo, expected) in table {
                let answer = try await site.finishWithSSO(try await site.start(returnTo: returnTo), user: user)
                #expect(answer.status == .found, "\(returnTo)")
                let location = try #require(answer.headers.first(name: "Location"))
                #expect(location == expected, "\(returnTo)")
                #expect(location.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "\(returnTo)")
            }
        }
    }

    @Test("a form_post sign-in returns to the page and its query; sign-out by POST ends the app's session and Entra's")
    func formPostSignInAndOut() async throws {
        try await WebAppSite.with(responseMode: .formPost) { site in
            // A page asked for before sign-in, with a query: the sign-in returns to both.
            let asked = try await site.request("/profile?view=full")
            let signIn = try #require(asked.headers.first(name: "Location"))
            let returnTo = URLComponents(string: signIn)?.queryItems?.first { $0.name == "returnTo" }?.value
            #expect(returnTo == "/profile?view=full")
            let start = try await site.request(signIn)
            let authorize = try #require(start.headers.first(name: "Location").flatMap(URL.init(string:)))
            #expect(authorize.query?.contains("response_mode=form_post") == true)

            let user = AutomatedUser(
                http: site.http, choices: [.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4")])
            user.setCookie("msal_signin", try #require(WebAppSite.cookie("msal_signin", in: start)))
            try await user.open(authorize)
            #expect(user.pagesSeen.last == "form_post")
            let session = "msal_session=" + (try #require(user.cookie("msal_session")))

            let profile = try await site.request("/profile", cookies: [session])
            #expect(profile.status == .ok)
            let page = String(buffer: try await profile.body.collect(upTo: 1 << 20))
            #expect(page.contains("Jane"))

            let home = String(buffer: try await site.request("/", cookies: [session]).body.collect(upTo: 1 << 20))
            let token = try #require(WebAppSite.antiForgeryToken(in: home))
            let signOut = try await site.request("/auth/signout", cookies: [session], form: "csrf_token=\(token)")
            #expect(signOut.status == .seeOther)
            let endSession = try #require(
                signOut.headers.first(name: "Location").flatMap(URLComponents.init(string:)))
            #expect(endSession.path.hasSuffix("/oauth2/v2.0/logout"))
            #expect(
                endSession.queryItems?.first { $0.name == "post_logout_redirect_uri" }?.value
                    == site.url.absoluteString + "/")
            #expect(try await site.signedIn(session) == false, "the session is gone")
        }
    }

    @Test("cookies are Secure by default when the public origin is https, and not over plain http")
    func secureCookie() throws {
        let app = try ConfidentialClientApplication(
            configuration: ConfidentialClientApplicationConfiguration(
                clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                authority: Authority("https://login.microsoftonline.com/\(IDs.externalTenant)")))
        func auth(_ origin: String?, _ explicit: Bool? = nil, mode: ResponseMode = .query)
            -> WebAppAuthentication<WebAppTestContext>
        {
            WebAppAuthentication<WebAppTestContext>(
                app: app, scopes: [], sessionStorage: MemoryPersistDriver(), responseMode: mode,
                publicOrigin: origin.flatMap(URL.init(string:)), secureCookies: explicit)
        }
        func secure(_ origin: String?, _ explicit: Bool? = nil) -> Bool {
            auth(origin, explicit).sessionConfiguration.sessionCookieParameters.secure
        }
        #expect(secure("https://app.example.com"))
        #expect(!secure("http://127.0.0.1:8600"))
        #expect(!secure(nil))
        #expect(!secure("https://app.example.com", false))
        #expect(secure(nil, true))
        // A form_post from another site brings the sign-in cookie only with SameSite=None, which needs TLS.
        #expect(auth("https://app.example.com", mode: .formPost).pendingSignIns.sameSite == .none)
        #expect(auth("http://127.0.0.1:8600", mode: .formPost).pendingSignIns.sameSite == .lax)
        #expect(auth("https://app.example.com").pendingSignIns.sameSite == .lax)
    }

    @Test(
        "only paths that stay on the site are returned to, as ASCII",
        arguments: [
            ("/profile", "/profile"), ("/profile?view=full#top", "/profile?view=full#top"),
            ("/a\tb", "/a%09b"), ("/caf\u{E9}", "/caf%C3%A9"), ("/x y\"<>", "/x%20y%22%3C%3E"),
            ("/\u{3000}/evil.example", "/%E3%80%80/evil.example"), ("/100%25", "/100%25"), ("/%zz", "/%zz"),
            ("https://evil.example/", nil), ("//evil.example/x", nil), ("/\\evil.example", nil),
            ("\\/evil.example", nil), ("/\t/evil.example", nil), ("/\n/evil.example", nil),
            ("/\r\n/evil.example", nil), ("\t//evil.example", nil), ("/%2F/evil.example", nil),
            ("/%5Cevil.example", nil), ("/%252F%252Fevil.example", nil), ("/%2525252F/evil.example", nil),
            ("\u{3000}//evil.example", nil), ("profile", nil), ("", nil), (nil, nil),
            ("/" + String(repeating: "a", count: 1024), nil),
        ] as [(String?, String?)])
    func returnPaths(_ path: String?, _ expected: String?) {
        #expect(ReturnPath.local(path) == expected)
    }
}

/// A context for naming `WebAppAuthentication`'s static members.
struct WebAppTestContext: WebAppRequestContext {
    var coreContext: CoreRequestContextStorage
    let sessions = SessionContext<WebAppSession>()

    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
}
