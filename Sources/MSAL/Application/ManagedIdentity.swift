/// The Azure identity a ``ManagedIdentityApplication`` gets tokens as: the one Azure gave the host
/// (system-assigned), or one of the user-assigned identities attached to it, named by any of its ids.
public enum ManagedIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The host's own identity.
    case systemAssigned
    /// A user-assigned identity named by its client (application) id.
    case userAssignedClientID(String)
    /// A user-assigned identity named by its Azure resource id
    /// (`/subscriptions/…/providers/Microsoft.ManagedIdentity/userAssignedIdentities/…`).
    case userAssignedResourceID(String)
    /// A user-assigned identity named by its object (principal) id.
    case userAssignedObjectID(String)

    /// The id the identity's tokens are cached under: its own, or `system_assigned_managed_identity`
    /// (MSAL Go's and MSAL.NET's name).
    var cacheID: String {
        switch self {
        case .systemAssigned: "system_assigned_managed_identity"
        case .userAssignedClientID(let id), .userAssignedResourceID(let id), .userAssignedObjectID(let id): id
        }
    }

    /// The identity in words, e.g. "the user-assigned identity with client id …".
    public var description: String {
        switch self {
        case .systemAssigned: "the system-assigned identity"
        case .userAssignedClientID(let id): "the user-assigned identity with client id \(id)"
        case .userAssignedResourceID(let id): "the user-assigned identity with resource id \(id)"
        case .userAssignedObjectID(let id): "the user-assigned identity with object id \(id)"
        }
    }
}
