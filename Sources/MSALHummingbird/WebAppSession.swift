import HummingbirdAuth
import MSAL

/// What a web app's server-side session holds once a user has signed in: their account id and the token its
/// forms that change state (sign-out) must carry back. A sign-in in progress is not here: it waits in a sealed
/// cookie in the browser that started it.
public struct WebAppSession: Codable, Sendable {
    /// The signed-in user's home account id, which names their token cache partition.
    public var accountID: String?
    /// A random value made at sign-in that the web session's `POST` forms carry (a cross-site request forgery
    /// token): a page on another site cannot read it, so it cannot make the browser sign out.
    public var antiForgeryToken: String?

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
