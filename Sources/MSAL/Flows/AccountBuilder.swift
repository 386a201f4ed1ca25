import Foundation

/// Builds ``Account`` values from the cache: one per home account, a tenant profile per realm.
struct AccountBuilder: Sendable {
    let cache: TokenCache
    let clientID: String

    /// All accounts on `environments` (any environment when `nil`).
    func accounts(environments: Set<String>?) async throws -> [Account] {
        let entries = try await cache.accounts().filter {
            environments?.contains($0.environment.lowercasedIfNeeded) ?? true
        }
        let groups = Dictionary(grouping: entries) { $0.homeAccountID.lowercasedIfNeeded }
        var result: [Account] = []
        for home in groups.keys.sorted() {
            if let account = try await build(groups[home]!) { result.append(account) }
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
        guard let account = try await build(group) else {
            throw MSALError(
                .interactionRequired, internalCode: .accountRequired,
                "The account is not in the token cache; sign in interactively.")
        }
        return account
    }

    private func build(_ group: [AccountEntry]) async throws -> Account? {
        guard let first = group.first else { return nil }
        let parts = first.homeAccountID.split(separator: ".", maxSplits: 1).map(String.init)
        let uid = parts.first ?? first.homeAccountID
        let utid = parts.count > 1 ? parts[1] : ""
        let idTokens = try await cache.idTokens(
            homeAccountID: first.homeAccountID, clientID: clientID, realms: group.map(\.realm))
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
                    identifier: entry.localAccountID, tenantID: tenantID, environment: entry.environment,
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
