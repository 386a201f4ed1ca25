import HummingbirdAuth
import MSAL

/// What a web app's server-side session holds for sign-in: the sign-in in progress (its PKCE verifier, `state` and
/// `nonce`, which never reach the browser), where to return afterwards, and the signed-in user's account id.
public struct WebAppSession: Codable, Sendable {
    /// The sign-in the browser was sent to the identity platform for.
    public var pendingSignIn: AuthorizationCodeFlow?
    /// The local path to return to once signed in.
    public var returnTo: String?
    /// The signed-in user's home account id, which names their token cache partition.
    public var accountID: String?

    /// An empty session.
    public init() {}
}

/// A request context with a ``WebAppSession`` (hummingbird-auth's sessions).
///
///     struct WebContext: WebAppRequestContext {
///         var coreContext: CoreRequestContextStorage
///         let sessions = SessionContext<WebAppSession>()
///         init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
///     }
public protocol WebAppRequestContext: SessionRequestContext where Session == WebAppSession {}
