import Foundation

/// A `scope` parameter resolved against the directory: OIDC scopes plus delegated scopes of resources.
struct ScopeSet: Sendable, Equatable {
    /// A delegated scope of one resource, in canonical casing.
    struct Grant: Sendable, Equatable, Hashable {
        let resourceID: String
        let name: String

        /// The consent key, case-insensitive.
        var key: String { "\(resourceID.lowercased())/\(name.lowercased())" }
    }

    static let oidcScopes = ["openid", "profile", "email", "offline_access"]

    private(set) var oidc: Set<String> = []
    /// Resources in request order with their requested scope names; `.default` kept as a name.
    private(set) var resources: [(id: String, names: [String])] = []
    /// How each requested scope was written, by ``Grant/key``: the resource prefix as sent
    /// (`https://graph.microsoft.com`, `api://…`, a client id) or `""` for Graph's short form.
    private var prefixes: [String: String] = [:]

    static func == (a: ScopeSet, b: ScopeSet) -> Bool {
        a.oidc == b.oidc && a.resources.map(\.id) == b.resources.map(\.id)
            && a.resources.map(\.names) == b.resources.map(\.names)
    }

    var wantsIDToken: Bool { oidc.contains("openid") }
    var wantsRefreshToken: Bool { oidc.contains("offline_access") }

    /// The first resource, which the access token is for (Graph when only OIDC scopes are asked).
    func primaryResource(_ index: DirectoryIndex) -> Application? {
        resources.first.flatMap { index.api(identifier: $0.id) } ?? index.graph
    }

    /// Parses a space-separated `scope` value.
    ///
    /// - Throws: ``EntraError`` `invalid_scope` (AADSTS70011) for an unknown scope, AADSTS500011 for an
    ///   unknown resource.
    init(parsing raw: String, index: DirectoryIndex) throws(EntraError) {
        for token in raw.split(whereSeparator: { $0 == " " || $0 == "+" }).map(String.init) {
            if Self.oidcScopes.contains(token.lowercased()) {
                oidc.insert(token.lowercased())
                continue
            }
            let resource: Application
            let name: String
            let prefix: String
            if let slash = token.lastIndex(of: "/") {
                let identifier = String(token[..<slash])
                prefix = identifier
                name = String(token[token.index(after: slash)...])
                guard let api = index.api(identifier: identifier) else {
                    throw EntraError.resourceNotFound(identifier)
                }
                resource = api
            } else {
                guard let graph = index.graph else { throw EntraError.invalidScope(raw) }
                resource = graph
                name = token
                prefix = ""
            }
            let canonical: String
            if name.lowercased() == ".default" {
                canonical = ".default"
            } else if let match = resource.scopes.first(where: { $0.lowercased() == name.lowercased() }) {
                canonical = match
            } else {
                throw EntraError.invalidScope(raw)
            }
            let key = Grant(resourceID: resource.clientId, name: canonical).key
            if prefixes[key] == nil { prefixes[key] = prefix }
            if let i = resources.firstIndex(where: { $0.id == resource.clientId }) {
                if !resources[i].names.contains(canonical) { resources[i].names.append(canonical) }
            } else {
                resources.append((resource.clientId, [canonical]))
            }
        }
    }

    /// How the client named `resource` in its first scope for it (`https://management.core.windows.net/` for
    /// `https://management.core.windows.net//.default`, a client id, `api://…`); `nil` for Graph's short form.
    func name(of resource: Application) -> String? {
        guard let names = resources.first(where: { $0.id == resource.clientId })?.names else { return nil }
        return names.lazy.compactMap { prefixes[Grant(resourceID: resource.clientId, name: $0).key] }
            .first { !$0.isEmpty }
    }

    /// The delegated scopes requested for `resource`, with `.default` expanded to those already consented.
    func grants(for resource: Application, consented: Set<String>) -> [Grant] {
        guard let names = resources.first(where: { $0.id == resource.clientId })?.names else { return [] }
        var out: [Grant] = []
        for name in names {
            if name == ".default" {
                for scope in resource.scopes {
                    let grant = Grant(resourceID: resource.clientId, name: scope)
                    if consented.contains(grant.key), !out.contains(grant) { out.append(grant) }
                }
            } else {
                let grant = Grant(resourceID: resource.clientId, name: name)
                if !out.contains(grant) { out.append(grant) }
            }
        }
        return out
    }

    /// Every explicitly requested delegated scope across resources (for consent), without `.default`.
    func allGrants() -> [Grant] {
        resources.flatMap { r in r.names.filter { $0 != ".default" }.map { Grant(resourceID: r.id, name: $0) } }
    }

    /// True when `.default` was requested for some resource.
    var hasDefault: Bool { resources.contains { $0.names.contains(".default") } }

    /// The `scope` value of a token response, as Entra writes it: each granted scope in the form it
    /// was requested (Graph's short `User.Read`, or prefixed by the resource as sent), scopes that
    /// `.default` expanded to in that `.default`'s form followed by the `.default` itself; for Graph the
    /// OpenID scopes, after short scopes (`User.Read profile openid email`) or before prefixed ones
    /// (`email openid profile https://graph.microsoft.com/User.Read`). `offline_access` is never echoed.
    func responseScope(grants: [Grant], resource: Application, isGraph: Bool) -> String {
        let names = resources.first(where: { $0.id == resource.clientId })?.names ?? []
        let defaultKey = Grant(resourceID: resource.clientId, name: ".default").key
        let defaultPrefix = names.contains(".default") ? prefixes[defaultKey] : nil
        func written(_ name: String, prefix: String) -> String { prefix.isEmpty ? name : "\(prefix)/\(name)" }
        var forms = grants.map { prefixes[$0.key] ?? defaultPrefix ?? resource.identifierUri ?? resource.clientId }
        var parts = zip(grants, forms).map { written($0.name, prefix: $1) }
        if let defaultPrefix {
            forms.append(defaultPrefix)
            parts.append(written(".default", prefix: defaultPrefix))
        }
        guard isGraph else { return parts.joined(separator: " ") }
        let prefixed = forms.contains { !$0.isEmpty }
        let openID =
            prefixed
            ? [("email", wantsEmail), ("openid", oidc.contains("openid")), ("profile", oidc.contains("profile"))]
            : [("profile", oidc.contains("profile")), ("openid", oidc.contains("openid")), ("email", wantsEmail)]
        let echoed = openID.filter(\.1).map(\.0)
        return (prefixed ? echoed + parts : parts + echoed).joined(separator: " ")
    }

    /// Entra grants `email` with `openid` as well as when it is asked for.
    private var wantsEmail: Bool { oidc.contains("email") || oidc.contains("openid") }
}
