import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import MSALVapor
import NIOCore
import Testing
import VaporTesting

/// A Vapor web app with MSALVapor's sign-in, served on a port of its own against the emulator, and the steps of a
/// sign-in at it. Cookies are sent by hand, so that each test says which session a request carries.
struct VaporWebSite {
    typealias IDs = Directory.DemoIDs

    let url: URL
    let http: HTTPClient

    /// Jane's username and password in the emulator's demo directory.
    static let jane = (username: "jane@example.com", password: "Jane-Demo-Pass4")

    /// The emulator and the web app (`/profile` shows the signed-in user and a token's length, `/` the sign-out
    /// button), with the client's cache `cache` (its default when `nil`).
    static func with(
        responseMode: ResponseMode = .query, cache: PartitionedTokenCache? = nil,
        _ body: @Sendable (VaporWebSite) async throws -> Void
    ) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            var configuration = try ConfidentialClientApplicationConfiguration(
                clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                authority: Authority(emulator.authority(IDs.externalTenant).absoluteString))
            if let cache { configuration.cache = cache }
            let client = try ConfidentialClientApplication(configuration: configuration)
            try await withApp { app in
                app.sessions.use(.memory)
                try app.msal.use(WebAppSignIn(app: client, scopes: ["User.Read"], responseMode: responseMode))
                let pages = app.grouped(WebAppUser.sessionAuthenticator(), WebAppUser.signInRedirectMiddleware())
                pages.get("profile") { req in
                    let user = try req.auth.require(WebAppUser.self)
                    let token = try await req.msal.userToken(scopes: ["User.Read"])
                    return "\(user.account.username) \(token.accessToken.isEmpty ? "no token" : "token")"
                }
                app.grouped(WebAppUser.sessionAuthenticator()).get { req in
                    req.msal.signOutForm() ?? "signed out"
                }
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                let port = try #require(app.http.server.shared.localAddress?.port)
                let http = HTTPClient(
                    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                    configuration: .init(redirectConfiguration: .disallow))
                do {
                    try await body(VaporWebSite(url: try #require(URL(string: "http://127.0.0.1:\(port)")), http: http))
                    try await http.shutdown()
                } catch {
                    try? await http.shutdown()
                    await app.server.shutdown()
                    throw error
                }
                await app.server.shutdown()
            }
        }
    }

    /// `GET` (or `POST` with `form`) a path of the site, or a whole URL, with these cookies (`name=value`).
    func request(_ target: String, cookies: [String] = [], form: String? = nil) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: target.hasPrefix("/") ? url.absoluteString + target : target)
        if !cookies.isEmpty { request.headers.add(name: "Cookie", value: cookies.joined(separator: "; ")) }
        if let form {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        return try await http.execute(request, timeout: .seconds(30))
    }

    /// A response's body as text.
    static func text(_ response: HTTPClientResponse) async throws -> String {
        String(buffer: try await response.body.collect(upTo: 1 << 20))
    }

    /// The value a response sets for cookie `name`, `nil` when it sets none or removes it.
    static func cookie(_ name: String, in response: HTTPClientResponse) -> String? {
        for header in response.headers["Set-Cookie"] where header.hasPrefix("\(name)=") {
            let value = header.split(separator: ";", omittingEmptySubsequences: false)[0].dropFirst(name.count + 1)
            return value.isEmpty || header.contains("Max-Age=0") ? nil : String(value)
        }
        return nil
    }

    /// `GET /auth/signin` with `returnTo` as it appears in the query: the authorize URL and the sign-in cookie.
    func start(returnTo: String? = nil, cookies: [String] = []) async throws -> (authorize: URL, signInCookie: String) {
        let response = try await request("/auth/signin" + (returnTo.map { "?returnTo=\($0)" } ?? ""), cookies: cookies)
        #expect(response.status == .found)
        return (
            try #require(response.headers.first(name: "Location").flatMap(URL.init(string:))),
            "msal_signin=" + (try #require(Self.cookie("msal_signin", in: response)))
        )
    }

    /// Jane's first sign-in: she types her password on the emulator's page, which sends the browser back to the
    /// site (by a redirect, or a `form_post` page); the emulator then keeps her SSO session in `user`'s cookies.
    /// Returns her session cookie (`msal_session=…`).
    func signInJane(_ started: (authorize: URL, signInCookie: String), as user: AutomatedUser) async throws -> String {
        user.then(.signIn(username: Self.jane.username, password: Self.jane.password))
        user.setCookie("msal_signin", String(started.signInCookie.dropFirst("msal_signin=".count)))
        try await user.open(started.authorize)
        return "msal_session=" + (try #require(user.cookie("msal_session")))
    }

    /// A sign-in finished through the emulator's SSO session (no page: it redirects straight back to the site):
    /// the site's answer to its redirect, sent with the sign-in cookie and `cookies`.
    func finishWithSSO(_ started: (authorize: URL, signInCookie: String), user: AutomatedUser, cookies: [String] = [])
        async throws -> HTTPClientResponse
    {
        let emulatorCookies = ["ESTSAUTH", "buid"].compactMap { name in user.cookie(name).map { "\(name)=\($0)" } }
        let authorize = try await request(started.authorize.absoluteString, cookies: emulatorCookies)
        #expect(authorize.status == .found, "the emulator signs Jane in again without a page")
        let back = try #require(authorize.headers.first(name: "Location"))
        #expect(back.hasPrefix(url.absoluteString + "/auth/redirect?"))
        return try await request(back, cookies: [started.signInCookie] + cookies)
    }

    /// Whether `/profile` shows the page for this session (200), rather than sending it to a new sign-in (302).
    func signedIn(_ session: String) async throws -> Bool {
        let profile = try await request("/profile", cookies: [session])
        #expect(profile.status == .ok || profile.headers.first(name: "Location")?.hasPrefix("/auth/signin?") == true)
        return profile.status == .ok
    }

    /// The anti-forgery token in a page's sign-out form.
    static func antiForgeryToken(in page: String) -> String? {
        guard page.contains(#"<form method="post" action="/auth/signout">"#),
            let start = page.range(of: #"name="csrf_token" value=""#)?.upperBound,
            let end = page[start...].firstIndex(of: "\"")
        else { return nil }
        return String(page[start..<end])
    }
}
