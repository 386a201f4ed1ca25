import Foundation

/// An app-only access token (client credentials): the app acting as itself, with the application
/// permissions (`roles`) granted to it.
public struct AppTokenResult: Sendable {
    /// The access token, to send as a bearer token.
    public let accessToken: String
    /// When the access token expires.
    public let expiresOn: Date
    /// The scopes asked for (one resource's `/.default`).
    public let scopes: [String]
    /// The tenant that issued the token.
    public let tenantID: String
    /// The correlation id of the call that returned the token.
    public let correlationID: UUID
    /// Whether the token came from the cache or from the identity provider.
    public let source: AuthenticationResult.Source
    /// When the identity platform asked for the token to be renewed (`refresh_in`), if it did.
    let refreshOn: Date?

    /// The application permissions granted to the app for the resource (the token's `roles` claim),
    /// read from the token; empty when none are granted.
    public var roles: [String] {
        guard let token = try? JWT(accessToken), let roles = token.claims["roles"] as? [any Sendable] else {
            return []
        }
        return roles.compactMap { $0 as? String }
    }

    /// The same token as a cache hit of another call.
    func fromCache(correlationID: UUID) -> AppTokenResult {
        AppTokenResult(
            accessToken: accessToken, expiresOn: expiresOn, scopes: scopes, tenantID: tenantID,
            correlationID: correlationID, source: .cache, refreshOn: refreshOn)
    }

    /// `Bearer <token>`, the `Authorization` header value.
    public var authorizationHeader: String { "Bearer \(accessToken)" }
}
