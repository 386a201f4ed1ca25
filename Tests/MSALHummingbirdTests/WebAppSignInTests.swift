import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import Hummingbird
import HummingbirdAuth
import IdentityEmulator
import MSAL
import MSALHummingbird
import Testing
import WebAppSample

/// The web app's sign-in routes over plain HTTP: the session cookie's attributes, a forged or stray redirect, and
/// return paths that could send the user elsewhere.
@Suite("Web-app sign-in routes", .timeLimit(.minutes(2)))
struct WebAppSignInTests {
    typealias IDs = Directory.DemoIDs

    static func withSite(
        responseMode: ResponseMode = .query, _ body: @Sendable (URL, HTTPClient) async throws -> Void
    ) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            var web = WebAppSampleConfiguration(
                client: try ConfidentialClientApplicationConfiguration(
                    clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                    authority: Authority(emulator.authority(IDs.externalTenant).absoluteString)),
                graphBaseURL: emulator.baseURL.appendingPathComponent("v1.0/"),
                todoListURL: emulator.baseURL.appendingPathComponent("api1/todolist"),
                todoScope: "api://\(IDs.api1)/ToDoList.Read")
            web.responseMode = responseMode
            try await WebAppSampleServer.withRunning(web) { site in
                let http = HTTPClient(
                    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                    configuration: .init(redirectConfiguration: .disallow))
                do {
                    try await body(site, http)
                    try await http.shutdown()
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
        }
    }

    static func get(_ http: HTTPClient, _ url: String, cookie: String? = nil) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: url)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        return try await http.execute(request, timeout: .seconds(30))
    }

    @Test("sign-in sets an HttpOnly, SameSite=Lax session cookie and sends the browser to the authorize endpoint")
    func signInCookie() async throws {
        try await Self.withSite { site, http in
            let response = try await Self.get(http, site.absoluteString + "/auth/signin?returnTo=/profile")
            #expect(response.status == .found)
            let location = try #require(response.headers.first(name: "Location"))
            #expect(location.contains("/oauth2/v2.0/authorize?"))
            #expect(location.contains("code_challenge_method=S256"))
            #expect(location.contains("client_id=\(IDs.webApp)"))
            let cookie = try #require(response.headers["Set-Cookie"].first { $0.hasPrefix("msal_session=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(!cookie.contains("Secure"), "served over plain HTTP on loopback")
            // The PKCE verifier and nonce stay on the server: the cookie is an id, nothing more.
            #expect(!cookie.contains("code_verifier") && cookie.count < 200)
        }
    }

    @Test("a redirect with a forged state is refused and ends the pending sign-in; one without a session too")
    func forgedRedirect() async throws {
        try await Self.withSite { site, http in
            let start = try await Self.get(http, site.absoluteString + "/auth/signin")
            let cookie = try #require(start.headers["Set-Cookie"].first { $0.hasPrefix("msal_session=") })
                .split(separator: ";")[0]
            let forged = try await Self.get(
                http, site.absoluteString + "/auth/redirect?code=stolen&state=forged", cookie: String(cookie))
            #expect(forged.status == .unauthorized)
            let again = try await Self.get(
                http, site.absoluteString + "/auth/redirect?code=stolen&state=forged", cookie: String(cookie))
            #expect(again.status == .badRequest, "the pending sign-in is gone")
            #expect(
                try await Self.get(http, site.absoluteString + "/auth/redirect?code=x&state=y").status == .badRequest)
            // A page that needs a token, without a session: back to sign-in, returning to it.
            let profile = try await Self.get(http, site.absoluteString + "/profile")
            #expect(profile.status == .found)
            #expect(profile.headers.first(name: "Location") == "/auth/signin?returnTo=/profile")
        }
    }

    @Test("a form_post sign-in returns to the page and its query; sign-out clears the session and ends Entra's")
    func formPostSignInAndOut() async throws {
        try await Self.withSite(responseMode: .formPost) { site, http in
            // A page asked for before sign-in, with a query: the sign-in returns to both.
            let asked = try await Self.get(http, site.absoluteString + "/profile?view=full")
            let signIn = try #require(asked.headers.first(name: "Location"))
            let returnTo = URLComponents(string: signIn)?.queryItems?.first { $0.name == "returnTo" }?.value
            #expect(returnTo == "/profile?view=full")
            let start = try await Self.get(http, site.absoluteString + signIn)
            let cookie = try #require(start.headers["Set-Cookie"].first { $0.hasPrefix("msal_session=") })
            let authorize = try #require(start.headers.first(name: "Location").flatMap(URL.init(string:)))
            #expect(authorize.query?.contains("response_mode=form_post") == true)

            let user = AutomatedUser(
                http: http, choices: [.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4")])
            let session = String(cookie.split(separator: ";")[0].dropFirst("msal_session=".count))
            user.setCookie("msal_session", session)
            try await user.open(authorize)
            #expect(user.pagesSeen.last == "form_post")
            let signedIn = try #require(user.cookie("msal_session"))
            #expect(signedIn != session, "a new session id after sign-in")

            let profile = try await Self.get(http, site.absoluteString + "/profile", cookie: "msal_session=\(signedIn)")
            #expect(profile.status == .ok)
            let page = String(buffer: try await profile.body.collect(upTo: 1 << 20))
            #expect(page.contains("Jane"))

            let signOut = try await Self.get(
                http, site.absoluteString + "/auth/signout", cookie: "msal_session=\(signedIn)")
            #expect(signOut.status == .found)
            let endSession = try #require(
                signOut.headers.first(name: "Location").flatMap(URLComponents.init(string:)))
            #expect(endSession.path.hasSuffix("/oauth2/v2.0/logout"))
            #expect(
                endSession.queryItems?.first { $0.name == "post_logout_redirect_uri" }?.value
                    == site.absoluteString + "/")
            let after = try await Self.get(http, site.absoluteString + "/profile", cookie: "msal_session=\(signedIn)")
            #expect(after.status == .found, "the session is gone")
            #expect(after.headers.first(name: "Location")?.hasPrefix("/auth/signin") == true)
        }
    }

    @Test("a session cookie is Secure by default when the public origin is https, and not over plain http")
    func secureCookie() throws {
        let app = try ConfidentialClientApplication(
            configuration: ConfidentialClientApplicationConfiguration(
                clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                authority: Authority("https://login.microsoftonline.com/\(IDs.externalTenant)")))
        func secure(_ origin: String?, _ explicit: Bool? = nil) -> Bool {
            WebAppAuthentication<WebAppTestContext>(
                app: app, scopes: [], publicOrigin: origin.flatMap(URL.init(string:)), secureCookies: explicit
            ).sessionConfiguration.sessionCookieParameters.secure
        }
        #expect(secure("https://app.example.com"))
        #expect(!secure("http://127.0.0.1:8600"))
        #expect(!secure(nil))
        #expect(!secure("https://app.example.com", false))
        #expect(secure(nil, true))
    }

    @Test(
        "only local paths are returned to after sign-in",
        arguments: [
            ("/profile", "/profile"), ("https://evil.example/", nil), ("//evil.example/x", nil),
            ("/\\evil.example", nil),
            ("profile", nil), (nil, nil),
        ] as [(String?, String?)])
    func returnPaths(_ path: String?, _ expected: String?) {
        #expect(WebAppAuthentication<WebAppTestContext>.localPath(path) == expected)
    }
}

/// A context for naming `WebAppAuthentication`'s static members.
struct WebAppTestContext: WebAppRequestContext {
    var coreContext: CoreRequestContextStorage
    let sessions = SessionContext<WebAppSession>()

    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
}
