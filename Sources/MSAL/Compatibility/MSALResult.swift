import Foundation

/// A token and what comes with it (MSAL's `MSALResult`), over the core ``AuthenticationResult``.
public final class MSALResult: Sendable {
    let result: AuthenticationResult

    init(_ result: AuthenticationResult) {
        self.result = result
    }

    /// The access token, to send as a bearer token.
    public var accessToken: String { result.accessToken }
    /// When the access token expires.
    public var expiresOn: Date? { result.expiresOn }
    /// The raw ID token, when one was issued or cached.
    public var idToken: String? { result.idToken }
    /// The scopes the token was granted for.
    public var scopes: [String] { result.scopes }
    /// The account the token was issued for.
    public var account: MSALAccount { MSALAccount(result.account) }
    /// The account's profile in the tenant that issued the token.
    public var tenantProfile: MSALTenantProfile { MSALTenantProfile(result.tenantProfile) }
    /// The correlation id of the call that returned the token.
    public var correlationId: UUID { result.correlationID }
    /// `Bearer <token>`, the `Authorization` header value.
    public var authorizationHeader: String { result.authorizationHeader }
}
