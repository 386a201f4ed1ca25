import Foundation

/// A user signed in with native authentication: the account, its claims, and access tokens for any
/// API the app may call, each cached separately and refreshed with the one refresh token.
public struct NativeAuthUserAccount: Sendable {
    let app: PublicClientApplication
    /// The signed-in account.
    public let account: Account
    /// The raw ID token.
    public let idToken: String?
    /// The scopes asked for at sign-in (used when ``getAccessToken(scopes:forceRefresh:)`` gets none).
    let scopes: [String]

    /// The ID-token claims (`preferred_username`, `name`, `oid`, `tid`…).
    public var accountClaims: [String: String] { account.accountClaims }

    /// An access token for `scopes`: from the cache while it is good, else refreshed silently.
    ///
    /// - Parameters:
    ///   - scopes: the API's scopes, e.g. `["api://<id>/ToDoList.Read"]`; the sign-in's scopes when empty.
    ///   - forceRefresh: skip the cached access token.
    ///   - claims: claims the token must carry (a claims challenge, JSON); the cached token is skipped.
    ///   - correlationID: the id the request carries and the result reports (a new one when `nil`).
    /// - Throws: ``MSALError`` `interactionRequired` when the refresh token no longer works (sign in again),
    ///   server and transport errors.
    public func getAccessToken(
        scopes: [String] = [], forceRefresh: Bool = false, claims: String? = nil, correlationID: UUID? = nil
    ) async throws -> AuthenticationResult {
        let requested = scopes.isEmpty ? Scopes.decorated(self.scopes) : scopes
        var parameters = SilentParameters(scopes: requested, account: account, forceRefresh: forceRefresh)
        parameters.claims = claims
        parameters.correlationID = correlationID
        return try await app.acquireTokenSilently(parameters)
    }

    /// Forgets this user's tokens for the app. Makes no network call.
    public func signOut() async throws {
        try await app.removeAccount(account)
    }
}
