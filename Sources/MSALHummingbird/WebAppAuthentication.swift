import Crypto
import Foundation
import Hummingbird
import HummingbirdAuth
import MSAL

/// Signs users in to a Hummingbird web app with the confidential client's authorization-code flow, and gets tokens
/// for APIs on their behalf from its partitioned cache.
///
///     let sessions = MemoryPersistDriver()            // a Service: run it beside the app
///     let auth = WebAppAuthentication<WebContext>(app: confidentialClient, scopes: ["User.Read"], sessionStorage: sessions)
///     router.add(middleware: auth.sessionMiddleware)
///     auth.addRoutes(to: router)                      // /auth/signin, /auth/redirect, /auth/signout
///     router.get("profile") { request, context in
///         let token = try await auth.token(scopes: ["User.Read"], request: request, context: context)
///         …
///     }
///
/// - `GET /auth/signin?returnTo=/page` starts a sign-in (PKCE, `state`, `nonce`) and sends the browser to the
///   identity platform. The sign-in in progress waits in a cookie sealed with AES-256-GCM in that browser (as
///   Microsoft.Identity.Web keeps it), not on the server: sign-ins started and never finished cost no memory.
/// - `GET` or `POST /auth/redirect` (query or `form_post`) takes only an answer with the sign-in's `state`: anything
///   else, an `error` included, is refused and leaves the sign-in in progress as it was. It then redeems the code,
///   validates the ID token, caches the user's tokens in their partition, deletes the browser's previous session and
///   starts a new one (an id that leaked or was planted before sign-in is worth nothing), and returns to the page
///   asked for: a path that stays on this site however a browser reads it, sent as ASCII.
/// - `POST /auth/signout` with the session's anti-forgery token (``signOutForm(_:label:)`` makes the button) clears
///   the session, forgets the user's tokens and sends the browser to the platform's sign-out page, which returns to
///   the app's home (the session is cleared even when the rest fails). `GET /auth/signout` only shows that button,
///   so a link or an image on another site cannot sign anyone out. The app's own forms that change something do the
///   same: ``antiForgeryInput(_:)`` in the form, ``postedForm(_:_:)`` to read it.
/// - ``token(scopes:request:context:)`` answers from the cache or refreshes; when the platform wants the user back
///   (`interactionRequired`), it throws a redirect to a new sign-in that returns to the current page.
///
/// The session cookie is `HttpOnly`, `SameSite=Lax`, and `Secure` when ``secureCookies`` is on (by default, when
/// ``publicOrigin`` is `https`). The sign-in cookie (`msal_signin`, under ``basePath``) is `SameSite=Lax` too, which
/// travels with the identity platform's redirect when it is a top-level `GET` (the default `query` response mode) or
/// a `form_post` from the same site; with `form_post` and ``secureCookies`` it is `SameSite=None`, so that a
/// `form_post` from another site (Entra to your domain) brings it.
public struct WebAppAuthentication<Context: WebAppRequestContext>: Sendable {
    /// The web app's confidential client.
    public var app: ConfidentialClientApplication { core.app }
    /// The scopes asked for at sign-in (OpenID scopes are added).
    public var scopes: [String] { core.scopes }
    /// Where sessions are kept: what ``sessionMiddleware`` reads and writes, and where a sign-in deletes the
    /// browser's previous session.
    public let sessionStorage: any PersistDriver
    /// How the identity platform returns the code.
    public var responseMode: ResponseMode { core.responseMode }
    /// The app's public origin (`https://app.example.com`); redirect URIs are made from it. `nil` takes the
    /// request's `Host` over `http` (for an app on loopback).
    public var publicOrigin: URL? { core.publicOrigin }
    /// Whether the cookies are `Secure`: the app is served over TLS.
    public var secureCookies: Bool { core.secureCookies }
    /// Where the routes live.
    public var basePath: String { core.basePath }
    /// The sign-in's rules, shared with the other web framework integrations.
    package let core: WebSignIn
    /// Where sign-ins in progress wait.
    package let pendingSignIns: PendingSignInCookie

    /// Sign-in for `app`, asking for `scopes`, with sessions in `sessionStorage`.
    ///
    /// - Parameters:
    ///   - secureCookies: whether the cookies are `Secure`; `nil` (the default) makes them so when `publicOrigin` is
    ///     an `https` URL.
    ///   - signInCookieKey: the AES-256 key that seals sign-ins in progress. Instances of the app that share a
    ///     session store behind one address share this key too; by default each instance makes its own.
    public init(
        app: ConfidentialClientApplication, scopes: [String], sessionStorage: any PersistDriver,
        responseMode: ResponseMode = .query, publicOrigin: URL? = nil, secureCookies: Bool? = nil,
        basePath: String = "/auth", signInCookieKey: SymmetricKey = SymmetricKey(size: .bits256)
    ) {
        let core = WebSignIn(
            app: app, scopes: scopes, responseMode: responseMode, publicOrigin: publicOrigin,
            secureCookies: secureCookies, basePath: basePath, key: signInCookieKey)
        self.core = core
        self.sessionStorage = sessionStorage
        pendingSignIns = PendingSignInCookie(
            seal: core.pending, path: core.pendingCookiePath, secure: core.secureCookies,
            sameSite: core.pendingCookieIsCrossSite ? .none : .lax)
    }

    /// The session cookie's settings: `msal_session`, `HttpOnly`, `SameSite=Lax`, `Secure` with ``secureCookies``.
    public var sessionConfiguration: SessionMiddlewareConfiguration {
        SessionMiddlewareConfiguration(
            sessionCookieParameters: SessionCookieParameters(
                name: WebSignIn.sessionCookieName, path: "/", secure: secureCookies, sameSite: .lax),
            defaultSessionExpiration: WebSignIn.sessionLifetime)
    }

    /// hummingbird-auth's session middleware over ``sessionStorage`` with ``sessionConfiguration``: add it to the
    /// router before the routes.
    public var sessionMiddleware: SessionMiddleware<Context> {
        SessionMiddleware(storage: sessionStorage, configuration: sessionConfiguration)
    }

    /// Adds `signin`, `redirect` (GET and POST) and `signout` (GET shows the button, POST signs out) under
    /// ``basePath``.
    public func addRoutes(to router: Router<Context>) {
        let group = router.group(RouterPath(stringLiteral: basePath))
        group.get("signin") { request, context in try await signIn(request, context) }
        group.get("redirect") { request, context in
            try await redirect(request, context, parameters: FormEncoding.decode(request.uri.query ?? ""))
        }
        group.post("redirect") { request, context in
            try await redirect(request, context, parameters: try await Self.form(request, context))
        }
        group.get("signout") { _, context in signOutPage(context) }
        group.post("signout") { request, context in try await signOut(request, context) }
    }

    /// The signed-in user, or `nil`.
    ///
    /// - Throws: cache errors.
    public func user(_ context: Context) async throws -> Account? {
        guard let id = context.sessions.session?.accountID else { return nil }
        return try await app.account(identifier: id)
    }

    /// A token for `scopes` for the signed-in user: from the cache, refreshed when needed.
    ///
    /// - Throws: ``SignInRedirect`` (a 302 to a new sign-in that returns to this page) when nobody is signed in or
    ///   the identity platform wants the user to sign in again; other ``MSALError``s.
    public func token(scopes: [String], request: Request, context: Context) async throws -> AuthenticationResult {
        guard let account = try await user(context) else { throw SignInRedirect(signInPath(returnTo: request)) }
        do {
            return try await app.acquireTokenSilently(SilentParameters(scopes: scopes, account: account))
        } catch let error as MSALError where error.code == .interactionRequired {
            throw SignInRedirect(signInPath(returnTo: request))
        }
    }

    /// The sign-in route's path, returning to `request`'s path and query.
    public func signInPath(returnTo request: Request) -> String {
        core.signInPath(returnTo: request.uri.path + (request.uri.query.map { "?\($0)" } ?? ""))
    }

    // MARK: Routes

    private func signIn(_ request: Request, _ context: Context) async throws -> Response {
        let (authorizationURL, pending) = try await core.start(
            origin: try origin(request), returnTo: FormEncoding.decode(request.uri.query ?? "")["returnTo"],
            previousSessionID: sessionID(request))
        var response = Response.redirect(to: authorizationURL.absoluteString, type: .found)
        response.setCookie(pendingSignIns.cookie(sealed: pending))
        return response
    }

    private func redirect(_ request: Request, _ context: Context, parameters: [String: String]) async throws
        -> Response
    {
        let completion = try await core.complete(
            pendingCookie: request.cookies[pendingSignIns.name]?.value, parameters: parameters,
            currentSessionID: sessionID(request))
        switch completion {
        case .noSignIn, .notThisSignIn:
            throw HTTPError(.badRequest, message: completion.message)
        case .failed(let error):
            context.logger.info("web sign-in failed", metadata: ["code": "\(error.code)"])
            var response = Response(
                status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: completion.message)))
            response.setCookie(pendingSignIns.removal)
            return response
        case .signedIn(let account, let returnTo, let endedSessionIDs, let antiForgeryToken):
            for id in endedSessionIDs {
                try await sessionStorage.remove(key: sessionConfiguration.keyPrefix + id)
            }
            var session = WebAppSession()
            session.accountID = account.identifier
            session.antiForgeryToken = antiForgeryToken
            context.sessions.createSession(session)
            var response = Response.redirect(to: returnTo, type: .found)
            response.setCookie(pendingSignIns.removal)
            return response
        }
    }

    // MARK: Support

    func origin(_ request: Request) throws -> String {
        guard let origin = core.origin(host: request.head.authority) else {
            throw HTTPError(.badRequest, message: "The request names no host.")
        }
        return origin
    }

    /// The session id the browser sent, whether or not it names a session.
    private func sessionID(_ request: Request) -> String? {
        request.cookies[sessionConfiguration.sessionCookieParameters.name]?.value
    }

    /// A posted form's fields.
    static func form(_ request: Request, _ context: Context) async throws -> [String: String] {
        try await URLEncodedFormDecoder().decode([String: String].self, from: request, context: context)
    }
}

/// A redirect to a new sign-in, as a response a handler can throw.
public struct SignInRedirect: HTTPResponseError, Sendable {
    /// The sign-in route, with the page to return to.
    public let location: String

    /// A redirect to `location`.
    public init(_ location: String) { self.location = location }

    /// 302 Found.
    public var status: HTTPResponse.Status { .found }

    /// The redirect.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        .redirect(to: location, type: .found)
    }
}
