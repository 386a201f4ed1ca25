import Crypto
import Foundation
import MSAL
import Vapor

/// Signs users in to a Vapor web app with the confidential client's authorization-code flow, with the same rules as
/// MSALHummingbird's `WebAppAuthentication` (MSAL's web sign-in core):
///
/// - `GET /auth/signin?returnTo=/page` starts a sign-in (PKCE, `state`, `nonce`); it waits in a cookie sealed with
///   AES-256-GCM in the browser, for 10 minutes at most, so sign-ins started and never finished cost no memory.
/// - `GET` or `POST /auth/redirect` (query or `form_post`) takes only the sign-in's answer; it ends the browser's
///   previous sessions, starts a new one (a new session id and anti-forgery token) and returns to the page asked for
///   when that is a path on this site, else to `/`.
/// - `POST /auth/signout` with the session's anti-forgery token signs out; `GET /auth/signout` only shows the button.
///
///     app.sessions.use(.memory)
///     try app.msal.use(WebAppSignIn(app: client, scopes: ["User.Read"]))
///     let pages = app.grouped(WebAppUser.sessionAuthenticator(), WebAppUser.signInRedirectMiddleware())
public struct WebAppSignIn: RouteCollection, Sendable {
    /// The sign-in's rules, shared with the other web framework integrations.
    package let core: WebSignIn

    /// Sign-in for `app`, asking for `scopes`.
    ///
    /// - Parameters:
    ///   - responseMode: how the identity platform returns the code (`query`, or `formPost`).
    ///   - publicOrigin: the app's public origin; `nil` takes the request's `Host` over `http` (an app on loopback).
    ///   - secureCookies: whether the cookies are `Secure`; `nil` makes them so when `publicOrigin` is `https`.
    ///   - basePath: where the routes live.
    ///   - signInCookieKey: the AES-256 key that seals sign-ins in progress; instances of the app behind one address
    ///     share it.
    public init(
        app: ConfidentialClientApplication, scopes: [String], responseMode: ResponseMode = .query,
        publicOrigin: URL? = nil, secureCookies: Bool? = nil, basePath: String = "/auth",
        signInCookieKey: SymmetricKey = SymmetricKey(size: .bits256)
    ) {
        core = WebSignIn(
            app: app, scopes: scopes, responseMode: responseMode, publicOrigin: publicOrigin,
            secureCookies: secureCookies, basePath: basePath, key: signInCookieKey)
    }

    /// The session cookie's settings: `msal_session`, `HttpOnly`, `SameSite=Lax`, `Secure` over TLS, 8 hours.
    public var sessionsConfiguration: SessionsConfiguration {
        let secure = core.secureCookies
        return SessionsConfiguration(cookieName: WebSignIn.sessionCookieName) { id in
            HTTPCookies.Value(
                string: id.string, maxAge: Int(WebSignIn.sessionLifetime.components.seconds), path: "/",
                isSecure: secure, isHTTPOnly: true, sameSite: .lax)
        }
    }

    /// Adds `signin`, `redirect` (GET and POST) and `signout` (GET shows the button, POST signs out) under the base
    /// path.
    public func boot(routes: any RoutesBuilder) throws {
        let group = routes.grouped(core.basePath.split(separator: "/").map { PathComponent(stringLiteral: String($0)) })
        group.get("signin") { request in try await signIn(request) }
        group.get("redirect") { request in
            try await redirect(request, parameters: FormEncoding.decode(request.url.query ?? ""))
        }
        group.post("redirect") { request in
            try await redirect(request, parameters: (try? request.content.decode([String: String].self)) ?? [:])
        }
        group.get("signout") { request in try signOutPage(request) }
        group.post("signout") { request in try await signOut(request) }
    }

    // MARK: Routes

    private func signIn(_ request: Request) async throws -> Response {
        let (authorizationURL, pending) = try await core.start(
            origin: try origin(request), returnTo: FormEncoding.decode(request.url.query ?? "")["returnTo"],
            previousSessionID: request.cookies[WebSignIn.sessionCookieName]?.string)
        let response = Response.found(authorizationURL.absoluteString)
        response.cookies[WebSignIn.pendingCookieName] = pendingCookie(pending)
        return response
    }

    private func redirect(_ request: Request, parameters: [String: String]) async throws -> Response {
        let completion = try await core.complete(
            pendingCookie: request.cookies[WebSignIn.pendingCookieName]?.string, parameters: parameters,
            currentSessionID: request.cookies[WebSignIn.sessionCookieName]?.string)
        switch completion {
        case .noSignIn, .notThisSignIn:
            throw Abort(.badRequest, reason: completion.message)
        case .failed(let error):
            request.logger.info("web sign-in failed", metadata: ["code": "\(error.code)"])
            let response = Response(
                status: .unauthorized, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: .init(string: completion.message))
            response.cookies[WebSignIn.pendingCookieName] = pendingCookie("", maxAge: 0)
            return response
        case .signedIn(let account, let returnTo, let endedSessionIDs, let antiForgeryToken):
            for id in endedSessionIDs {
                try await request.application.sessions.driver.deleteSession(SessionID(string: id), for: request).get()
            }
            // A new session, under a new id: the middleware creates it when the response goes out.
            request.session.id = nil
            request.session.data = SessionData()
            request.session.data[WebAppSignIn.antiForgeryKey] = antiForgeryToken
            request.session.authenticate(WebAppUser(account: account))
            let response = Response.found(returnTo)
            response.cookies[WebSignIn.pendingCookieName] = pendingCookie("", maxAge: 0)
            return response
        }
    }

    private func signOutPage(_ request: Request) throws -> Response {
        guard let form = request.msal.signOutForm() else { return request.redirect(to: "/") }
        var headers = HTTPHeaders()
        for (name, value) in WebSignIn.signOutPageHeaders { headers.add(name: name, value: value) }
        return Response(status: .ok, headers: headers, body: .init(string: WebSignIn.signOutPage(form: form)))
    }

    private func signOut(_ request: Request) async throws -> Response {
        guard request.hasSession, try await request.msal.postedForm() != nil else { return request.redirect(to: "/") }
        let accountID = request.session.authenticated(WebAppUser.self)
        // First: whatever fails below, this browser is signed out of the app.
        request.session.destroy()
        request.auth.logout(WebAppUser.self)
        guard let origin = try? origin(request) else { return request.redirect(to: "/") }
        return request.redirect(to: await core.signOut(accountID: accountID, origin: origin, logger: request.logger))
    }

    // MARK: Support

    /// The session data key of the anti-forgery token.
    static let antiForgeryKey = "msal_csrf"

    func origin(_ request: Request) throws -> String {
        guard let origin = core.origin(host: request.headers.first(name: .host)) else {
            throw Abort(.badRequest, reason: "The request names no host.")
        }
        return origin
    }

    private func pendingCookie(_ value: String, maxAge: Int = Int(PendingSignInSeal.lifetime.components.seconds))
        -> HTTPCookies.Value
    {
        HTTPCookies.Value(
            string: value, maxAge: maxAge, path: core.pendingCookiePath, isSecure: core.secureCookies,
            isHTTPOnly: true, sameSite: core.pendingCookieIsCrossSite ? HTTPCookies.SameSitePolicy.none : .lax)
    }
}

extension Response {
    /// 302 Found to `location`, as the sign-in's redirects are in every integration.
    static func found(_ location: String) -> Response {
        Response(status: .found, headers: ["Location": location])
    }
}
