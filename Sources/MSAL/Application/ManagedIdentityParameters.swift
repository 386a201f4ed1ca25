import Foundation

/// What a managed identity token request asks for (``ManagedIdentityApplication/acquireToken(_:)``).
public struct ManagedIdentityParameters: Sendable {
    /// The resource the token is for: an app id URI such as `https://management.azure.com/`, or a client id; a
    /// trailing `/.default` is dropped.
    public var resource: String
    /// Skip the cached token and ask the source.
    public var forceRefresh: Bool
    /// A claims challenge the resource sent back: skips the cached token (and, to Service Fabric, names the
    /// revoked one).
    public var claims: String?

    /// Parameters for a token for `resource`.
    public init(resource: String, forceRefresh: Bool = false) {
        self.resource = resource
        self.forceRefresh = forceRefresh
    }
}
