import Foundation

/// Builds ``Account`` values from the cache: one per home account, a tenant profile per realm.
struct AccountBuilder: Sendable {
    let cache: TokenCache
    let clientID: String

    /// The client's accounts on `environments` (any environment when `nil`): those it holds an ID token of, or a
    /// refresh token it can use (``TokenCache/refreshTokens(homeAccountID:environments:clientID:)``), as MSAL for
    /// iOS lists signed-in accounts. Other clients' accounts in a shared cache are left out.
    func accounts(environments: Set<String>?) async throws -> [Account] {
        let entries = try await cache.accounts().filter {
            environments?.contains($0.environment.lowercasedIfNeeded) ?? true
        }
        let groups = Dictionary(grouping: entries) { $0.homeAccountID.lowercasedIfNeeded }
        var result: [Account] = []
        for home in groups.keys.sorted() {
            let group = groups[home]!
            let idTokens = try await idTokens(of: group)
            guard try await isSignedIn(group, idTokens: idTokens, environments: environments) else { continue }
            if let account = Self.build(group, idTokens: idTokens) { result.append(account) }
        }
        return result
    }

    /// The account with this home account id.
    ///
    /// - Throws: ``MSALError`` `accountRequired` when the cache has no such account.
    func account(homeAccountID: String, environments: Set<String>?) async throws -> Account {
        let group = try await cache.accounts(homeAccountID: homeAccountID).filter {
            environments?.contains($0.environment.lowercasedIfNeeded) ?? true
        }
        guard let account = Self.build(group, idTokens: try await idTokens(of: group)) else {
            throw MSALError(
                .interactionRequired, internalCode: .accountRequired,
                "The account is not in the token cache; sign in interactively.")
        }
        return account
    }

    /// The client's ID tokens of one home account's entries, in their tenants.
    private func idTokens(of group: [AccountEntry]) async throws -> [IDTokenEntry] {
        guard let first = group.first else { return [] }
        return try await cache.idTokens(
            homeAccountID: first.homeAccountID, clientID: clientID, realms: group.map(\.realm))
    }

    /// Whether the client signed the account in: it holds one of its ID tokens, or a refresh token it can use on
    /// `environments` (the entries' own when `nil`).
    private func isSignedIn(_ group: [AccountEntry], idTokens: [IDTokenEntry], environments: Set<String>?)
        async throws -> Bool
    {
        guard idTokens.isEmpty else { return true }
        guard let first = group.first else { return false }
        return try await !cache.refreshTokens(
            homeAccountID: first.homeAccountID,
            environments: environments ?? Set(group.map { $0.environment.lowercasedIfNeeded }), clientID: clientID
        ).isEmpty
    }

    /// The account of one home account's entries, its tenant profiles' claims read from `idTokens`.
    static func build(_ group: [AccountEntry], idTokens: [IDTokenEntry]) -> Account? {
        guard let first = group.first else { return nil }
        let parts = first.homeAccountID.split(separator: ".", maxSplits: 1).map(String.init)
        let uid = parts.first ?? first.homeAccountID
        let utid = parts.count > 1 ? parts[1] : ""
        var profiles: [TenantProfile] = []
        for entry in group {
            let claims =
                idTokens.first { $0.realm.equalsIgnoringCase(entry.realm) }
                .flatMap { try? JWT($0.secret) }.map(Self.stringClaims) ?? [:]
            // MSAL Python files an account signed in through `common` or `organizations` under that word;
            // its ID token names the tenant.
            let tenantID =
                Authority.multiTenantSegments.contains(entry.realm.lowercasedIfNeeded)
                ? claims["tid"] ?? entry.realm : entry.realm
            guard !profiles.contains(where: { $0.tenantID.equalsIgnoringCase(tenantID) }) else {
                continue
            }
            profiles.append(
                TenantProfile(
                    localAccountID: entry.localAccountID, tenantID: tenantID, environment: entry.environment,
                    isHomeTenantProfile: tenantID.equalsIgnoringCase(utid), claims: claims))
        }
        profiles.sort { $0.isHomeTenantProfile && !$1.isHomeTenantProfile }
        let home = profiles.first { $0.isHomeTenantProfile } ?? profiles[0]
        let username = group.first { $0.realm.equalsIgnoringCase(utid) }?.username ?? first.username
        return Account(
            homeAccountID: .init(identifier: first.homeAccountID, objectID: uid, tenantID: utid),
            username: username, environment: first.environment, accountClaims: home.claims, tenantProfiles: profiles)
    }

    private static func stringClaims(_ jwt: JWT) -> [String: String] {
        jwt.claims.compactMapValues { value in
            switch value {
            case let s as String: s
            case let i as Int: String(i)
            default: nil
            }
        }
    }
}
