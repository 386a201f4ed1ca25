import Crypto
import Foundation
import Logging
import WebText

/// The rules of a web app's sign-in that do not depend on the web framework, applied by MSALHummingbird's and
/// MSALVapor's routes alike:
///
/// - a sign-in starts with PKCE, `state` and `nonce` (``ConfidentialClientApplication/startSignIn(_:)``) and waits
///   in a sealed cookie in the browser (``PendingSignInSeal``), bounded in time;
/// - it returns only to a path on this site (``ReturnPath``);
/// - its redirect is taken only with the sign-in's `state`: anything else, an `error` included, changes nothing;
/// - once signed in, the browser's sessions from before end (the one it had at the start and the one it sends now)
///   and a new one starts with a new anti-forgery token (``AntiForgeryToken``);
/// - sign-out is a `POST` with that token: it forgets the user's tokens and goes to the platform's sign-out page.
package struct WebSignIn: Sendable {
    /// The web app's confidential client.
    package let app: ConfidentialClientApplication
    /// The scopes asked for at sign-in (OpenID scopes are added).
    package let scopes: [String]
    /// How the identity platform returns the code.
    package let responseMode: ResponseMode
    /// The app's public origin; `nil` takes the request's host over `http` (for an app on loopback).
    package let publicOrigin: URL?
    /// Whether the cookies are `Secure`.
    package let secureCookies: Bool
    /// Where the routes live (`/auth`).
    package let basePath: String
    /// Where sign-ins in progress wait.
    package let pending: PendingSignInSeal

    /// The name of the cookie a sign-in in progress waits in.
    package static let pendingCookieName = "msal_signin"
    /// The name of the session cookie.
    package static let sessionCookieName = "msal_session"
    /// How long a session lasts.
    package static let sessionLifetime: Duration = .seconds(8 * 3600)

    /// Sign-in for `app`; `secureCookies` `nil` makes the cookies `Secure` when `publicOrigin` is `https`.
    package init(
        app: ConfidentialClientApplication, scopes: [String], responseMode: ResponseMode, publicOrigin: URL?,
        secureCookies: Bool?, basePath: String, key: SymmetricKey
    ) {
        self.app = app
        self.scopes = scopes
        self.responseMode = responseMode
        self.publicOrigin = publicOrigin
        self.secureCookies = secureCookies ?? (publicOrigin?.scheme?.lowercased() == "https")
        self.basePath = basePath
        pending = PendingSignInSeal(name: Self.pendingCookieName, key: key)
    }

    /// The path the sign-in cookie is sent to: the routes'.
    package var pendingCookiePath: String { basePath.isEmpty ? "/" : basePath }

    /// Whether the sign-in cookie is `SameSite=None` rather than `Lax`: with `form_post` over TLS, so that a
    /// `form_post` from another site (Entra to your domain) brings it.
    package var pendingCookieIsCrossSite: Bool { responseMode == .formPost && secureCookies }

    /// The origin redirect URIs are made from: ``publicOrigin`` without a trailing `/`, else `http://` and the
    /// request's `host`; `nil` when there is neither.
    package func origin(host: String?) -> String? {
        if let publicOrigin {
            let text = publicOrigin.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        return host.map { "http://\($0)" }
    }

    /// The sign-in route's path, returning to `pathAndQuery` (the current page).
    package func signInPath(returnTo pathAndQuery: String) -> String {
        "\(basePath)/signin?" + FormEncoding.encode([("returnTo", pathAndQuery)])
    }

    /// Starts a sign-in that returns to `returnTo` when it is a path on this site (else `/`).
    ///
    /// - Returns: where to send the browser, and the value of the sign-in cookie to set.
    /// - Throws: ``MSALError`` when the authority cannot be reached.
    package func start(origin: String, returnTo: String?, previousSessionID: String?, now: Date = Date())
        async throws -> (authorizationURL: URL, pendingCookie: String)
    {
        let flow = try await app.startSignIn(
            WebSignInParameters(
                scopes: scopes, redirectURI: origin + "\(basePath)/redirect", responseMode: responseMode)
        )
        let signIn = PendingSignIn(
            flow: flow, returnTo: ReturnPath.local(returnTo) ?? "/", previousSessionID: previousSessionID, started: now)
        return (flow.authorizationURL, try pending.seal(signIn))
    }

    /// How a redirect from the identity platform ended.
    package enum Completion: Sendable {
        /// No sign-in is in progress in this browser (no cookie, or one that does not open): 400.
        case noSignIn
        /// Not the sign-in's answer (a forged or stray redirect, an error without its `state`): 400, and the sign-in
        /// in progress can still finish.
        case notThisSignIn
        /// The platform refused, or the code or ID token did not pass: 401, and the sign-in cookie is removed.
        case failed(MSALError)
        /// Signed in: delete `endedSessionIDs` from the session store, start a new session for `account` with
        /// `antiForgeryToken`, remove the sign-in cookie and return to `returnTo`.
        case signedIn(account: Account, returnTo: String, endedSessionIDs: Set<String>, antiForgeryToken: String)

        /// What the browser is told when it is not signed in.
        package var message: String {
            switch self {
            case .noSignIn: "No sign-in is in progress in this browser; start again."
            case .notThisSignIn: "This answer is not the sign-in's in progress."
            case .failed: "The sign-in did not complete; start again.\n"
            case .signedIn: ""
            }
        }
    }

    /// Completes the sign-in whose sealed cookie is `pendingCookie` with the redirect's `parameters` (its query or
    /// posted form), the browser sending the session id `currentSessionID`.
    ///
    /// - Throws: errors other than ``MSALError`` (the cache's store…).
    package func complete(pendingCookie: String?, parameters: [String: String], currentSessionID: String?)
        async throws -> Completion
    {
        guard let signIn = pending.open(pendingCookie) else { return .noSignIn }
        let result: AuthenticationResult
        do {
            result = try await app.completeSignIn(signIn.flow, response: parameters)
        } catch let error as MSALError where error.internalCode == .invalidState {
            return .notThisSignIn
        } catch let error as MSALError {
            return .failed(error)
        }
        // The browser's sessions from before end: the one it had when the sign-in started and the one it sends now
        // (the same, unless a cross-site form_post left it behind). An id that leaked, or was planted, before the
        // sign-in is worth nothing after it.
        return .signedIn(
            account: result.account, returnTo: signIn.returnTo,
            endedSessionIDs: Set([signIn.previousSessionID, currentSessionID].compactMap { $0 }),
            antiForgeryToken: AntiForgeryToken.make())
    }

    /// Forgets `accountID`'s tokens and returns where to send the browser: the platform's sign-out page, which
    /// returns to the app's home, or the home when that fails (logged to `logger`, the user is signed out of the app
    /// anyway).
    package func signOut(accountID: String?, origin: String, logger: Logger) async -> String {
        do {
            let endSession = try await app.signOut(accountIdentifier: accountID, postLogoutRedirectURI: origin + "/")
            return endSession?.absoluteString ?? "/"
        } catch {
            logger.warning(
                "sign-out did not reach the identity platform or the token cache",
                metadata: ["code": "\((error as? MSALError).map { "\($0.code)" } ?? "\(type(of: error))")"])
            return "/"
        }
    }

    /// The sign-out button: a form that `POST`s to the sign-out route with the session's anti-forgery `token`
    /// (HTML, every value escaped; the button's id is `signout`).
    package func signOutForm(token: String, label: String) -> String {
        """
        <form method="post" action="\(HTMLText.escape(basePath + "/signout"))">\
        \(AntiForgeryToken.input(token))\
        <button type="submit" id="signout">\(HTMLText.escape(label))</button></form>
        """
    }

    /// The page `GET /signout` shows: the sign-out button, which signs nobody out by itself. Serve it with
    /// ``signOutPageHeaders``.
    package static func signOutPage(form: String) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>Sign out</title></head>
        <body><h1>Sign out</h1>\(form)</body></html>
        """
    }

    /// The sign-out page's headers: HTML, not cached, and not framed by another site (which could trick a click).
    package static let signOutPageHeaders: [(name: String, value: String)] = [
        ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
        ("Content-Security-Policy", "frame-ancestors 'none'"),
    ]
}
