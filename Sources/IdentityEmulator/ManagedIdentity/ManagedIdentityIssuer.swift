import Foundation

/// What every managed identity source does alike: find the host and the identity a request names, and mint a
/// token for a resource of the directory. Each source renders the failures in its own error shape.
struct ManagedIdentityIssuer: Sendable {
    let core: EmulatorCore

    /// How a request names the identity.
    enum Selector: Sendable {
        case systemAssigned
        case clientID(String)
        case objectID(String)
        case resourceID(String)

        var isSystemAssigned: Bool {
            if case .systemAssigned = self { true } else { false }
        }
    }

    enum Failure: Error, Sendable {
        /// The request names no resource.
        case missingResource
        /// The resource is not an API of the directory (AADSTS500011).
        case unknownResource(String)
        /// The host has no such identity attached.
        case identityNotFound
    }

    /// A minted token, with the numbers every source reports.
    struct Minted: Sendable {
        let token: String
        let identity: AzureManagedIdentity?
        let now: Date
        let lifetime: Int
        var expiresOn: Int { now.epochSeconds + lifetime }
    }

    /// Managed identity tokens live a day, as IMDS's do, unless the emulator fixes the lifetime.
    static let lifetime = 86_399

    func host(named name: String) -> AzureHost? {
        core.state.index.directory.hosts.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The identity `selector` names among those attached to `host`.
    func identity(on host: AzureHost, _ selector: Selector) throws(Failure) -> AzureManagedIdentity {
        let directory = core.state.index.directory
        let attached = directory.managedIdentities.filter { identity in
            ([host.systemAssignedIdentity].compactMap { $0 } + host.userAssignedIdentities).contains {
                $0.caseInsensitiveCompare(identity.clientId) == .orderedSame
            }
        }
        let found: AzureManagedIdentity?
        switch selector {
        case .systemAssigned:
            found = attached.first {
                $0.clientId.caseInsensitiveCompare(host.systemAssignedIdentity ?? "") == .orderedSame
            }
        case .clientID(let id): found = attached.first { $0.clientId.caseInsensitiveCompare(id) == .orderedSame }
        case .objectID(let id): found = attached.first { $0.objectId.caseInsensitiveCompare(id) == .orderedSame }
        case .resourceID(let id): found = attached.first { $0.resourceId.caseInsensitiveCompare(id) == .orderedSame }
        }
        guard let found else { throw .identityNotFound }
        return found
    }

    /// An API as a request named it.
    struct Resource: Sendable {
        let api: Application
        /// The request's `resource` (an application id URI as written, or a client id): a v1.0 token's `aud`.
        let name: String
    }

    /// The API `resource` names (app id URI, with or without a trailing slash, or client id).
    func resource(_ resource: String?) throws(Failure) -> Resource {
        guard let resource, !resource.isEmpty else { throw .missingResource }
        guard let api = core.state.index.api(identifier: resource) else { throw .unknownResource(resource) }
        return Resource(api: api, name: resource)
    }

    /// An app-only token for `identity` to `requested`: `idtyp` `app`, its granted `roles`, `xms_mirid`.
    func mint(_ identity: AzureManagedIdentity, for requested: Resource) throws -> Minted {
        let resource = requested.api
        let now = core.state.now
        let lifetime = core.accessTokenLifetime ?? Self.lifetime
        let client = Application(
            clientId: identity.clientId, displayName: identity.displayName, tenant: identity.tenant,
            kind: .confidentialClient, grantedAppRoles: identity.grantedAppRoles)
        let token = try core.issuer.appToken(
            origin: core.issuerOrigin, tenantID: identity.tenant, client: client, resource: resource,
            roles: core.state.index.grantedRoles(of: client, on: resource), clientClass: "2", now: now,
            lifetime: lifetime, uti: core.state.opaque(16), audience: requested.name, managedIdentity: identity)
        return Minted(token: token, identity: identity, now: now, lifetime: lifetime)
    }

    /// Cloud Shell's token: the signed-in user's, issued to the Azure CLI, with the resource's delegated scopes.
    func mintForUser(of host: AzureHost, for requested: Resource) throws -> Minted? {
        let resource = requested.api
        let index = core.state.index
        guard let user = host.user.flatMap(index.user(named:)),
            let membership = index.membership(of: user, tenantID: user.tenant)
        else { return nil }
        let now = core.state.now
        let lifetime = core.accessTokenLifetime ?? 3599
        let token = try core.issuer.accessToken(
            origin: core.issuerOrigin, membership: membership, client: FirstPartyApplications.azureCLI,
            resource: resource, scp: resource.scopes.joined(separator: " "), now: now, lifetime: lifetime,
            capabilityCP1: false, uti: core.state.opaque(16), clientClass: "0", audience: requested.name)
        return Minted(token: token, identity: nil, now: now, lifetime: lifetime)
    }
}
