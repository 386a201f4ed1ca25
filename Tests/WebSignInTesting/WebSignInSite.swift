import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import NIOCore
import Testing

/// A web app with MSAL's sign-in (webapp-sample on Hummingbird, or a Vapor app), running against the emulator, and
/// the steps of a sign-in at it over HTTP. Redirects are not followed and cookies are sent by hand, so that each test
/// says which session a request carries.
package protocol WebSignInSite: Sendable {
    /// Where the site listens.
    var url: URL { get }
    /// A client that follows no redirects.
    var http: HTTPClient { get }
}

/// A sign-in started at a site: the authorize URL it sends the browser to, and its sealed sign-in cookie.
package struct StartedSignIn: Sendable {
    package let authorize: URL
    /// `msal_signin=…`.
    package let signInCookie: String

    /// The `state` the authorize URL carries.
    package var state: String? {
        URLComponents(url: authorize, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value
    }
}

extension WebSignInSite {
    /// Jane's username and password in the emulator's demo directory.
    package static var jane: (username: String, password: String) { ("jane@example.com", "Jane-Demo-Pass4") }

    /// `GET` (or `POST` with `form`) a path of the site, or a whole URL, with these cookies (`name=value`).
    package func request(_ target: String, cookies: [String] = [], form: String? = nil) async throws
        -> HTTPClientResponse
    {
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
    package static func text(_ response: HTTPClientResponse) async throws -> String {
        String(buffer: try await response.body.collect(upTo: 1 << 20))
    }

    /// The value a response sets for cookie `name`, `nil` when it sets none or removes it.
    package static func cookie(_ name: String, in response: HTTPClientResponse) -> String? {
        for header in response.headers["Set-Cookie"] where header.hasPrefix("\(name)=") {
            let value = header.split(separator: ";", omittingEmptySubsequences: false)[0].dropFirst(name.count + 1)
            return value.isEmpty || header.contains("Max-Age=0") ? nil : String(value)
        }
        return nil
    }

    /// The anti-forgery token in a page's sign-out form.
    package static func antiForgeryToken(in page: String) -> String? {
        guard page.contains(#"<form method="post" action="/auth/signout">"#),
            let start = page.range(of: #"name="csrf_token" value=""#)?.upperBound,
            let end = page[start...].firstIndex(of: "\"")
        else { return nil }
        return String(page[start..<end])
    }

    /// `GET /auth/signin`, with `returnTo` as it appears in the query (already percent-encoded).
    package func start(returnTo: String? = nil, cookies: [String] = []) async throws -> StartedSignIn {
        let response = try await request("/auth/signin" + (returnTo.map { "?returnTo=\($0)" } ?? ""), cookies: cookies)
        #expect(response.status == .found)
        return StartedSignIn(
            authorize: try #require(response.headers.first(name: "Location").flatMap(URL.init(string:))),
            signInCookie: "msal_signin=" + (try #require(Self.cookie("msal_signin", in: response))))
    }

    /// Jane's first sign-in: she types her password on the emulator's page, which sends the browser back to the site
    /// (by a redirect, or a `form_post` page); the emulator then keeps her SSO session in `user`'s cookies. Returns her
    /// session cookie (`msal_session=…`).
    package func signInJane(_ started: StartedSignIn, as user: AutomatedUser) async throws -> String {
        user.then(.signIn(username: Self.jane.username, password: Self.jane.password))
        user.setCookie("msal_signin", String(started.signInCookie.dropFirst("msal_signin=".count)))
        try await user.open(started.authorize)
        return "msal_session=" + (try #require(user.cookie("msal_session")))
    }

    /// A sign-in finished through the emulator's SSO session (no page: it redirects straight back to the site): the
    /// site's answer to its redirect, sent with the sign-in cookie and `cookies`.
    package func finishWithSSO(_ started: StartedSignIn, user: AutomatedUser, cookies: [String] = []) async throws
        -> HTTPClientResponse
    {
        let emulatorCookies = ["ESTSAUTH", "buid"].compactMap { name in user.cookie(name).map { "\(name)=\($0)" } }
        let authorize = try await request(started.authorize.absoluteString, cookies: emulatorCookies)
        #expect(authorize.status == .found, "the emulator signs Jane in again without a page")
        let back = try #require(authorize.headers.first(name: "Location"))
        #expect(back.hasPrefix(url.absoluteString + "/auth/redirect?"))
        return try await request(back, cookies: [started.signInCookie] + cookies)
    }

    /// Whether `/profile` shows the page for this session (200), rather than sending it to a new sign-in (302).
    package func signedIn(_ session: String) async throws -> Bool {
        let profile = try await request("/profile", cookies: [session])
        #expect(profile.status == .ok || profile.headers.first(name: "Location")?.hasPrefix("/auth/signin?") == true)
        return profile.status == .ok
    }
}
