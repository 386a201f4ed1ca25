import Foundation

/// A token and what comes with it (MSAL's `MSALResult`), over the core ``AuthenticationResult``.
public final class MSALResult: Sendable {
    let result: AuthenticationResult

    init(_ result: AuthenticationResult) {
        self.result = result
    }

    public var accessToken: String { result.accessToken }
    public var expiresOn: Date? { result.expiresOn }
    /// The raw ID token, when one was issued or cached.
    public var idToken: String? { result.idToken }
    /// The scopes the token was granted for.
    public var scopes: [String] { result.scopes }
    public var account: MSALAccount { MSALAccount(result.account) }
    public var tenantProfile: MSALTenantProfile { MSALTenantProfile(result.tenantProfile) }
    public var correlationId: UUID { result.correlationID }
    /// `Bearer <token>`, the `Authorization` header value.
    public var authorizationHeader: String { result.authorizationHeader }
}
