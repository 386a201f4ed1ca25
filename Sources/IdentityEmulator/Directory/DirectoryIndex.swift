import Foundation

/// How the first path segment of a request names a tenant.
enum TenantSelector: Sendable {
    /// A tenant by GUID or domain.
    case tenant(Tenant)
    /// `common` or `organizations`: the signed-in user's home tenant.
    case multiTenant(alias: String)
    /// `consumers` (or the MSA tenant GUID): personal Microsoft accounts, of which the emulator has none.
    case consumers

    /// The literal path segment for endpoints of this selector.
    var pathSegment: String {
        switch self {
        case .tenant(let t): t.id
        case .multiTenant(let alias): alias
        case .consumers: "consumers"
        }
    }
}

/// The directory with lookups by id, domain, user name and resource.
struct DirectoryIndex: Sendable {
    static let consumersTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

    let directory: Directory
    /// The directory's applications, then Microsoft's (``FirstPartyApplications``) it does not replace.
    let applications: [Application]
    private let tenantsByKey: [String: Tenant]
    private let usersByName: [String: User]
    private let usersByID: [String: User]
    private let appsByID: [String: Application]
    private let apisByIdentifier: [String: Application]
    private let keysByClient: [String: [RegisteredKey]]
    /// The tenants' custom URL domains, lower-cased.
    private let customURLDomains: Set<String>

    init(_ directory: Directory) {
        self.directory = directory
        var tenants: [String: Tenant] = [:]
        for t in directory.tenants {
            tenants[t.id.lowercased()] = t
            tenants[t.domain.lowercased()] = t
        }
        tenantsByKey = tenants
        customURLDomains = Set(directory.tenants.flatMap { $0.customURLDomains.map { $0.lowercased() } })
        usersByName = Dictionary(
            directory.users.map { ($0.userPrincipalName.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var byID: [String: User] = [:]
        for u in directory.users {
            byID[u.id.lowercased()] = u
            for g in u.guestOf { byID[g.objectId.lowercased()] = u }
        }
        usersByID = byID
        let declared = Set(directory.applications.map { $0.clientId.lowercased() })
        applications =
            directory.applications + FirstPartyApplications.all.filter { !declared.contains($0.clientId.lowercased()) }
        appsByID = Dictionary(
            applications.map { ($0.clientId.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var apis: [String: Application] = [:]
        for (position, app) in applications.enumerated() where app.kind == .api {
            // Microsoft's APIs never take an application id URI the directory gave one of its own.
            let firstParty = position >= directory.applications.count
            apis[app.clientId.lowercased()] = app
            for uri in app.identifierUris.map({ Self.withoutTrailingSlash($0).lowercased() })
            where !firstParty || apis[uri] == nil {
                apis[uri] = app
                apis[uri + "/"] = app
            }
        }
        apisByIdentifier = apis
        var keys: [String: [RegisteredKey]] = [:]
        for app in applications where !app.keyCredentials.isEmpty {
            keys[app.clientId.lowercased()] = app.keyCredentials.compactMap { try? RegisteredKey($0) }
        }
        keysByClient = keys
    }

    /// Resolves the `{tenant}` path segment; `nil` for an unknown tenant.
    func selector(_ segment: String) -> TenantSelector? {
        let key = segment.lowercased()
        switch key {
        case "common", "organizations": return .multiTenant(alias: key)
        case "consumers", Self.consumersTenantID: return .consumers
        default: return tenantsByKey[key].map(TenantSelector.tenant)
        }
    }

    func tenant(id: String) -> Tenant? { tenantsByKey[id.lowercased()] }

    /// Whether `host` (a name without port, lower-cased) is one of the tenants' custom URL domains.
    func isCustomURLDomain(_ host: String) -> Bool { !customURLDomains.isEmpty && customURLDomains.contains(host) }

    func user(named name: String) -> User? { usersByName[name.lowercased()] }

    /// A user by object id in any tenant (home or guest object).
    func user(objectID: String) -> User? { usersByID[objectID.lowercased()] }

    func application(clientID: String) -> Application? { appsByID[clientID.lowercased()] }

    /// An API by client id or application id URI.
    func api(identifier: String) -> Application? { apisByIdentifier[identifier.lowercased()] }

    var graph: Application? { api(identifier: "https://graph.microsoft.com") }

    /// The `aud` values a token for `api` may carry: its client id and each application id URI, with and without
    /// a trailing slash (lowercased).
    func audiences(of api: Application) -> Set<String> {
        var audiences: Set<String> = [api.clientId.lowercased()]
        for uri in api.identifierUris.map({ Self.withoutTrailingSlash($0).lowercased() }) {
            audiences.insert(uri)
            audiences.insert(uri + "/")
        }
        return audiences
    }

    /// `uri` without one trailing `/`.
    static func withoutTrailingSlash(_ uri: String) -> String { uri.hasSuffix("/") ? String(uri.dropLast()) : uri }

    /// A subscription by id, with the tenant that holds it.
    func subscription(id: String) -> (AzureSubscription, Tenant)? {
        for tenant in directory.tenants {
            if let found = tenant.subscriptions.first(where: { $0.id.lowercased() == id.lowercased() }) {
                return (found, tenant)
            }
        }
        return nil
    }

    /// The parsed key credentials of an application (validated when the directory was loaded).
    func keys(of clientID: String) -> [RegisteredKey] { keysByClient[clientID.lowercased()] ?? [] }

    /// The application permissions `client` was granted on `resource`, in the resource's casing.
    func grantedRoles(of client: Application, on resource: Application) -> [String] {
        var roles: [String] = []
        for granted in client.grantedAppRoles {
            guard let slash = granted.lastIndex(of: "/"),
                api(identifier: String(granted[..<slash]))?.clientId.lowercased() == resource.clientId.lowercased()
            else { continue }
            let name = granted[granted.index(after: slash)...].lowercased()
            if let role = resource.appRoles.first(where: { $0.lowercased() == name }), !roles.contains(role) {
                roles.append(role)
            }
        }
        return roles
    }

    /// Where `user` signs in through `selector`: the tenant and the user's object id in it.
    ///
    /// `nil` when the user is neither a member nor a guest of the tenant.
    func membership(of user: User, in selector: TenantSelector) -> Membership? {
        switch selector {
        case .consumers: return nil
        case .multiTenant:
            guard let home = tenant(id: user.tenant), home.kind == .workforce else { return nil }
            return Membership(tenant: home, objectID: user.id, user: user)
        case .tenant(let t):
            return membership(of: user, tenantID: t.id)
        }
    }

    func membership(of user: User, tenantID: String) -> Membership? {
        guard let t = tenant(id: tenantID) else { return nil }
        if user.tenant.lowercased() == t.id.lowercased() { return Membership(tenant: t, objectID: user.id, user: user) }
        if let guest = user.guestOf.first(where: { $0.tenant.lowercased() == t.id.lowercased() }) {
            return Membership(tenant: t, objectID: guest.objectId, user: user)
        }
        return nil
    }
}

/// A user as seen in one tenant.
struct Membership: Sendable {
    let tenant: Tenant
    /// The `oid` in this tenant (differs from the home `oid` for guests).
    let objectID: String
    let user: User

    /// The home tenant id (`utid` of `client_info`).
    var homeTenantID: String { user.tenant }
}
