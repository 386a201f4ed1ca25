import Foundation
import Hummingbird
import HummingbirdAuth
import MSAL

/// Signs users in to a Hummingbird web app with the confidential client's authorization-code flow, and gets tokens
/// for APIs on their behalf from its partitioned cache.
///
///     let auth = WebAppAuthentication<WebContext>(app: confidentialClient, scopes: ["User.Read"])
///     router.add(middleware: SessionMiddleware(storage: MemoryPersistDriver(), configuration: auth.sessionConfiguration))
///     auth.addRoutes(to: router)                      // /auth/signin, /auth/redirect, /auth/signout
///     router.get("profile") { request, context in
///         let token = try await auth.token(scopes: ["User.Read"], request: request, context: context)
///         …
///     }
///
/// - `GET /auth/signin?returnTo=/page` starts a sign-in (PKCE, `state`, `nonce`) kept in the session and sends the
///   browser to the identity platform.
/// - `GET` or `POST /auth/redirect` (query or `form_post`) checks `state`, redeems the code, validates the ID token,
///   caches the user's tokens in their partition, starts a new session (a new id, so a session fixed before sign-in
///   is worth nothing) and returns to the page asked for (local paths only).
/// - `GET /auth/signout` clears the session, forgets the user's tokens and sends the browser to the platform's
///   sign-out page, which returns to the app's home (the session is cleared even when the rest fails).
/// - ``token(scopes:request:context:)`` answers from the cache or refreshes; when the platform wants the user back
///   (`interactionRequired`), it throws a redirect to a new sign-in that returns to the current page.
///
/// The session cookie is `HttpOnly`, `SameSite=Lax`, and `Secure` when ``secureCookies`` is on (by default, when
/// ``publicOrigin`` is `https`). A `SameSite=Lax` cookie travels with the identity platform's redirect when it is a top-level `GET` (the
/// default `query` response mode), or a `form_post` from the same site; a `form_post` from another site (Entra to
/// your domain) needs ``sessionConfiguration`` with `sameSite: .none` and TLS.
public struct WebAppAuthentication<Context: WebAppRequestContext>: Sendable {
    /// The web app's confidential client.
    public let app: ConfidentialClientApplication
    /// The scopes asked for at sign-in (OpenID scopes are added).
    public let scopes: [String]
    /// How the identity platform returns the code.
    public let responseMode: ResponseMode
    /// The app's public origin (`https://app.example.com`); redirect URIs are made from it. `nil` takes the
    /// request's `Host` over `http` (for an app on loopback).
    public let publicOrigin: URL?
    /// Whether the session cookie is `Secure`: the app is served over TLS.
    public let secureCookies: Bool
    /// Where the routes live.
    public let basePath: String

    /// Sign-in for `app`, asking for `scopes`.
    ///
    /// - Parameter secureCookies: whether the session cookie is `Secure`; `nil` (the default) makes it so when
    ///   `publicOrigin` is an `https` URL.
    public init(
        app: ConfidentialClientApplication, scopes: [String], responseMode: ResponseMode = .query,
        publicOrigin: URL? = nil, secureCookies: Bool? = nil, basePath: String = "/auth"
    ) {
        self.app = app
        self.scopes = scopes
        self.responseMode = responseMode
        self.publicOrigin = publicOrigin
        self.secureCookies = secureCookies ?? (publicOrigin?.scheme?.lowercased() == "https")
        self.basePath = basePath
    }

    /// The session cookie's settings: `msal_session`, `HttpOnly`, `SameSite=Lax`, `Secure` with ``secureCookies``.
    public var sessionConfiguration: SessionMiddlewareConfiguration {
        SessionMiddlewareConfiguration(
            sessionCookieParameters: SessionCookieParameters(
                name: "msal_session", path: "/", secure: secureCookies, sameSite: .lax),
            defaultSessionExpiration: .seconds(8 * 3600))
    }

    /// Adds `signin`, `redirect` (GET and POST) and `signout` under ``basePath``.
    public func addRoutes(to router: Router<Context>) {
        let group = router.group(RouterPath(stringLiteral: basePath))
        group.get("signin") { request, context in try await signIn(request, context) }
        group.get("redirect") { request, context in
            try await redirect(request, context, parameters: Self.query(request))
        }
        group.post("redirect") { request, context in
            let form = try await URLEncodedFormDecoder().decode([String: String].self, from: request, context: context)
            return try await redirect(request, context, parameters: form)
        }
        group.get("signout") { request, context in try await signOut(request, context) }
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
        var components = URLComponents()
        components.path = "\(basePath)/signin"
        let query = request.uri.query.map { "?\($0)" } ?? ""
        components.queryItems = [URLQueryItem(name: "returnTo", value: request.uri.path + query)]
        return components.string ?? "\(basePath)/signin"
    }

    // MARK: Routes

    private func signIn(_ request: Request, _ context: Context) async throws -> Response {
        let parameters = WebSignInParameters(
            scopes: scopes, redirectURI: try origin(request) + "\(basePath)/redirect", responseMode: responseMode)
        let flow = try await app.startSignIn(parameters)
        var session = context.sessions.session ?? WebAppSession()
        session.pendingSignIn = flow
        session.returnTo = Self.localPath(Self.query(request)["returnTo"])
        context.sessions.createSession(session, expiresIn: .seconds(600))
        return .redirect(to: flow.authorizationURL.absoluteString, type: .found)
    }

    private func redirect(_ request: Request, _ context: Context, parameters: [String: String]) async throws
        -> Response
    {
        guard let flow = context.sessions.session?.pendingSignIn else {
            throw HTTPError(.badRequest, message: "No sign-in is in progress in this browser; start again.")
        }
        let result: AuthenticationResult
        do {
            result = try await app.completeSignIn(flow, response: parameters)
        } catch let error as MSALError {
            context.logger.info("web sign-in failed", metadata: ["code": "\(error.code)"])
            // Answered, not thrown: the session middleware saves a cleared session only with a response, and a
            // pending sign-in must not survive a forged or failed redirect.
            context.sessions.clearSession()
            return Response(
                status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "The sign-in did not complete; start again.\n")))
        }
        var session = WebAppSession()
        session.accountID = result.account.identifier
        let returnTo = context.sessions.session?.returnTo ?? "/"
        // A new session id after sign-in: one fixed before it is worth nothing.
        context.sessions.createSession(session)
        return .redirect(to: returnTo, type: .found)
    }

    private func signOut(_ request: Request, _ context: Context) async throws -> Response {
        let accountID = context.sessions.session?.accountID
        // First: whatever fails below, this browser is signed out of the app.
        context.sessions.clearSession()
        do {
            let endSession = try await app.signOut(
                accountIdentifier: accountID, postLogoutRedirectURI: try origin(request) + "/")
            return .redirect(to: endSession?.absoluteString ?? "/", type: .found)
        } catch {
            context.logger.warning(
                "sign-out did not reach the identity platform or the token cache",
                metadata: ["code": "\((error as? MSALError).map { "\($0.code)" } ?? "\(type(of: error))")"])
            return .redirect(to: "/", type: .found)
        }
    }

    // MARK: Support

    private func origin(_ request: Request) throws -> String {
        if let publicOrigin {
            let text = publicOrigin.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        guard let host = request.head.authority else {
            throw HTTPError(.badRequest, message: "The request names no host.")
        }
        return "http://\(host)"
    }

    /// The query's parameters, form-decoded (`+` is a space).
    private static func query(_ request: Request) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if let name = parts.first, parameters[name] == nil { parameters[name] = parts.count > 1 ? parts[1] : "" }
        }
        return parameters
    }

    /// `path` when it is a path on this site (`/…`, not `//host` or a URL), else `nil`.
    package static func localPath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.hasPrefix("/\\"),
            !path.contains(where: { $0.isNewline })
        else { return nil }
        return path
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
