import Foundation

/// What an on-behalf-of token request asks for
/// (``ConfidentialClientApplication/acquireTokenOnBehalfOf(_:)``).
public struct OnBehalfOfParameters: Sendable {
    /// The user's token the web API received, the raw bearer token; its hash names the cache partition.
    public var userAssertion: String
    /// The downstream API's scopes, e.g. `["User.Read"]`.
    public var scopes: [String]
    /// Skip the cached access token and use the on-behalf-of refresh token.
    public var forceRefresh: Bool
    /// A claims request (JSON), e.g. from a claims challenge: skips the cache and exchanges the assertion again.
    public var claims: String?

    /// Parameters for a token to a downstream API on behalf of the user `userAssertion` was issued to.
    public init(userAssertion: String, scopes: [String], forceRefresh: Bool = false) {
        self.userAssertion = userAssertion
        self.scopes = scopes
        self.forceRefresh = forceRefresh
    }
}
