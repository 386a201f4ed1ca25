import MSAL
import Vapor

/// The user signed in to a Vapor web app, restored from Vapor's session on each request by
/// ``WebAppUser/sessionAuthenticator()``: the session keeps their home account id, which names their partition of
/// the token cache.
///
///     let pages = app.grouped(WebAppUser.sessionAuthenticator(), WebAppUser.signInRedirectMiddleware())
///     pages.get("profile") { req in try req.auth.require(WebAppUser.self).account.username ?? "" }
public struct WebAppUser: SessionAuthenticatable, Sendable {
    /// The user's account in the token cache.
    public let account: Account

    /// The signed-in `account`.
    public init(account: Account) {
        self.account = account
    }

    /// The home account id, kept in the session.
    public var sessionID: String { account.identifier }

    /// Restores the user from the session: their account, when the web app's token cache still has it (signed out
    /// elsewhere, they are not signed in here either).
    public static func sessionAuthenticator() -> some AsyncSessionAuthenticator {
        WebAppUserSessionAuthenticator()
    }

    /// Sends a browser nobody is signed in with to a sign-in that returns to the page it asked for.
    public static func signInRedirectMiddleware() -> any Middleware {
        SignInRedirectMiddleware()
    }
}

/// Reads a ``WebAppUser`` from the account id in the session.
struct WebAppUserSessionAuthenticator: AsyncSessionAuthenticator {
    typealias User = WebAppUser

    func authenticate(sessionID: String, for request: Request) async throws {
        guard let client = request.application.msal.client,
            let account = try await client.account(identifier: sessionID)
        else { return }
        request.auth.login(WebAppUser(account: account))
    }
}

/// 302 to a sign-in that returns to the page, when no ``WebAppUser`` is logged in.
struct SignInRedirectMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.auth.has(WebAppUser.self) else { return .found(request.msal.signInPath) }
        return try await next.respond(to: request)
    }
}
