import Foundation

/// What an app-only token request asks for
/// (``ConfidentialClientApplication/acquireTokenForClient(_:)``, the client credentials grant).
public struct ClientCredentialParameters: Sendable {
    /// The resource's `/.default` scope, e.g. `["https://graph.microsoft.com/.default"]`.
    public var scopes: [String]
    /// Skip the cached token and ask the identity platform.
    public var forceRefresh: Bool
    /// A claims request (JSON), e.g. from a claims challenge: skips the cache and is sent with the request.
    public var claims: String?

    /// Parameters for an app-only token request.
    public init(scopes: [String], forceRefresh: Bool = false) {
        self.scopes = scopes
        self.forceRefresh = forceRefresh
    }
}
