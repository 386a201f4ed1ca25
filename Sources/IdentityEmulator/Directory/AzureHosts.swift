import Foundation

/// A managed identity: a service principal Azure manages for a resource, with no credential anyone holds.
public struct AzureManagedIdentity: Codable, Sendable {
    /// The client (application) id.
    public var clientId: String
    /// The object (principal) id: the `oid` of its tokens.
    public var objectId: String
    /// The Azure resource id: the host's for a system-assigned identity,
    /// `/subscriptions/…/providers/Microsoft.ManagedIdentity/userAssignedIdentities/{name}` for a user-assigned one;
    /// the `xms_mirid` of its tokens.
    public var resourceId: String
    /// The tenant it belongs to.
    public var tenant: String
    public var displayName: String
    /// Application permissions granted to it, as for an application: `{resource identifierUri}/{role}`.
    public var grantedAppRoles: [String]

    public init(
        clientId: String, objectId: String, resourceId: String, tenant: String, displayName: String,
        grantedAppRoles: [String] = []
    ) {
        self.clientId = clientId
        self.objectId = objectId
        self.resourceId = resourceId
        self.tenant = tenant
        self.displayName = displayName
        self.grantedAppRoles = grantedAppRoles
    }

    enum CodingKeys: String, CodingKey {
        case clientId, objectId, resourceId, tenant, displayName, grantedAppRoles
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        clientId = try c.decode(String.self, forKey: .clientId)
        objectId = try c.decode(String.self, forKey: .objectId)
        resourceId = try c.decode(String.self, forKey: .resourceId)
        tenant = try c.decode(String.self, forKey: .tenant)
        displayName = try c.decode(String.self, forKey: .displayName)
        grantedAppRoles = try c.decodeIfPresent([String].self, forKey: .grantedAppRoles) ?? []
    }
}

/// A machine or service in Azure whose processes get managed identity tokens from a local endpoint, served by the
/// emulator under `/hosts/{name}/…` in the shape of the host's kind.
public struct AzureHost: Codable, Sendable {
    /// Which Azure service the host is, so which managed identity source its processes see.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A VM, scale set or AKS node: IMDS.
        case virtualMachine
        /// App Service, Functions or Container Apps: `IDENTITY_ENDPOINT` with `X-IDENTITY-HEADER`.
        case appService
        /// A Service Fabric application: HTTPS with a pinned certificate and the `Secret` header.
        case serviceFabric
        /// Azure Machine Learning compute: `MSI_ENDPOINT` with the `secret` header.
        case machineLearning
        /// Azure Cloud Shell: the signed-in user's token.
        case cloudShell
        /// An Azure Arc-enabled server: the agent's challenge and key file.
        case azureArc
    }

    /// The name in the host's URLs, e.g. `vm-1`.
    public var name: String
    public var kind: Kind
    /// The value Azure puts in `IDENTITY_HEADER` (App Service, Service Fabric) or `MSI_SECRET` (Machine Learning).
    public var secret: String?
    /// The client id of the host's system-assigned identity, one of ``Directory/managedIdentities``.
    public var systemAssignedIdentity: String?
    /// The client ids of the user-assigned identities attached to the host.
    public var userAssignedIdentities: [String]
    /// Cloud Shell: the user signed in to the portal, by user principal name.
    public var user: String?
    /// The Azure region the host runs in, as IMDS's compute metadata names it (`location`); ``defaultLocation``
    /// when a directory file names none.
    public var location: String

    /// The region of a host whose directory entry names none.
    public static let defaultLocation = "westus2"

    public init(
        name: String, kind: Kind, secret: String? = nil, systemAssignedIdentity: String? = nil,
        userAssignedIdentities: [String] = [], user: String? = nil, location: String = AzureHost.defaultLocation
    ) {
        self.name = name
        self.kind = kind
        self.secret = secret
        self.systemAssignedIdentity = systemAssignedIdentity
        self.userAssignedIdentities = userAssignedIdentities
        self.user = user
        self.location = location
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, secret, systemAssignedIdentity, userAssignedIdentities, user, location
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        kind = try c.decode(Kind.self, forKey: .kind)
        secret = try c.decodeIfPresent(String.self, forKey: .secret)
        systemAssignedIdentity = try c.decodeIfPresent(String.self, forKey: .systemAssignedIdentity)
        userAssignedIdentities = try c.decodeIfPresent([String].self, forKey: .userAssignedIdentities) ?? []
        user = try c.decodeIfPresent(String.self, forKey: .user)
        location = try c.decodeIfPresent(String.self, forKey: .location) ?? Self.defaultLocation
    }
}
