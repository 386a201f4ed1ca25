import Foundation

/// The token cache: MSAL's unified schema (access, refresh and ID tokens, accounts, app metadata),
/// indexed by account so a silent lookup touches only that account's entries, and optionally
/// persisted through a ``TokenCachePersistence``.
public actor TokenCache {
    private struct RealmKey: Hashable {
        let homeAccountID: String
        let clientID: String
        let realm: String

        init(_ homeAccountID: String, _ clientID: String, _ realm: String) {
            self.homeAccountID = homeAccountID.lowercased()
            self.clientID = clientID.lowercased()
            self.realm = realm.lowercased()
        }
    }

    private let persistence: (any TokenCachePersistence)?
    private var loaded = false
    private var accessTokens: [RealmKey: [AccessTokenEntry]] = [:]
    private var idTokens: [RealmKey: [IDTokenEntry]] = [:]
    private var refreshTokens: [String: [RefreshTokenEntry]] = [:]
    private var accountEntries: [String: [AccountEntry]] = [:]
    private var appMetadata: [String: [AppMetadataEntry]] = [:]
    private var unknownSections: [String: CacheValue] = [:]

    /// - Parameter persistence: where to keep the cache between runs; in memory only when `nil`.
    public init(persistence: (any TokenCachePersistence)? = nil) {
        self.persistence = persistence
    }

    // MARK: Lookups

    /// The access token for this account, client and tenant whose scopes include `scopes`
    /// (case-insensitive), on any of `environments`.
    func accessToken(homeAccountID: String, clientID: String, realm: String, environments: Set<String>,
                     scopes: [String]) async throws -> AccessTokenEntry? {
        try await loadIfNeeded()
        return accessTokens[RealmKey(homeAccountID, clientID, realm)]?.first {
            environments.contains($0.environment.lowercased()) && Scopes.isSubset(scopes, of: $0.scopeSet)
        }
    }

    /// Refresh tokens of the account usable by `clientID`: its own, then the family's, newest first.
    func refreshTokens(homeAccountID: String, environments: Set<String>, clientID: String, familyID: String?) async throws -> [RefreshTokenEntry] {
        try await loadIfNeeded()
        let candidates = (refreshTokens[homeAccountID.lowercased()] ?? []).filter { environments.contains($0.environment.lowercased()) }
            .sorted { ($0.lastModification ?? .distantPast) > ($1.lastModification ?? .distantPast) }
        let own = candidates.filter { $0.clientID.caseInsensitiveCompare(clientID) == .orderedSame && $0.familyID == nil }
        let family = familyID.map { id in candidates.filter { $0.familyID == id } } ?? []
        let ownFamilyTokens = candidates.filter { $0.clientID.caseInsensitiveCompare(clientID) == .orderedSame && $0.familyID != nil }
        var seen = Set<String>()
        return (own + ownFamilyTokens + family).filter { seen.insert($0.secret).inserted }
    }

    func idToken(homeAccountID: String, clientID: String, realm: String, environments: Set<String>) async throws -> IDTokenEntry? {
        try await loadIfNeeded()
        return idTokens[RealmKey(homeAccountID, clientID, realm)]?.first { environments.contains($0.environment.lowercased()) }
    }

    /// ID tokens of an account for this client in every tenant.
    func idTokens(homeAccountID: String, clientID: String) async throws -> [IDTokenEntry] {
        try await loadIfNeeded()
        return idTokens.filter { $0.key.homeAccountID == homeAccountID.lowercased() && $0.key.clientID == clientID.lowercased() }
            .flatMap(\.value)
    }

    func accounts() async throws -> [AccountEntry] {
        try await loadIfNeeded()
        return accountEntries.values.flatMap { $0 }
    }

    func appMetadata(clientID: String, environments: Set<String>) async throws -> AppMetadataEntry? {
        try await loadIfNeeded()
        return appMetadata[clientID.lowercased()]?.first { environments.contains($0.environment.lowercased()) }
    }

    // MARK: Changes

    /// Stores the artefacts of one token response.
    ///
    /// A new access token replaces cached ones for the same account, client and tenant whose scopes
    /// intersect it. A refresh token that was used is updated in place (as MSAL Python does).
    func store(_ artefacts: CacheArtefacts, replacingRefreshToken used: String?) async throws {
        try await loadIfNeeded()
        if let at = artefacts.accessToken {
            let key = RealmKey(at.homeAccountID, at.clientID, at.realm)
            let scopes = at.scopeSet
            accessTokens[key, default: []].removeAll { $0.environment == at.environment && !$0.scopeSet.isDisjoint(with: scopes) }
            accessTokens[key, default: []].append(at)
        }
        if let rt = artefacts.refreshToken {
            let home = rt.homeAccountID.lowercased()
            var list = refreshTokens[home] ?? []
            if let used, let index = list.firstIndex(where: { $0.secret == used }) {
                list[index].secret = rt.secret
                list[index].lastModification = rt.lastModification
                if rt.familyID != nil { list[index].familyID = rt.familyID }
            } else if let index = list.firstIndex(where: {
                $0.environment == rt.environment && $0.clientID.caseInsensitiveCompare(rt.clientID) == .orderedSame && $0.familyID == rt.familyID
            }) {
                list[index] = rt
            } else {
                list.append(rt)
            }
            refreshTokens[home] = list
        }
        if let idToken = artefacts.idToken {
            let key = RealmKey(idToken.homeAccountID, idToken.clientID, idToken.realm)
            idTokens[key, default: []].removeAll { $0.environment == idToken.environment }
            idTokens[key, default: []].append(idToken)
        }
        if let account = artefacts.account {
            let home = account.homeAccountID.lowercased()
            accountEntries[home, default: []].removeAll { $0.environment == account.environment && $0.realm.lowercased() == account.realm.lowercased() }
            accountEntries[home, default: []].append(account)
        }
        if let metadata = artefacts.appMetadata {
            let client = metadata.clientID.lowercased()
            appMetadata[client, default: []].removeAll { $0.environment == metadata.environment }
            appMetadata[client, default: []].append(metadata)
        }
        try await persist()
    }

    /// Forgets an account for one client: its refresh tokens (and the family's), and the account's
    /// access tokens, ID tokens and account entries.
    func removeAccount(homeAccountID: String, clientID: String, familyID: String?) async throws {
        try await loadIfNeeded()
        let home = homeAccountID.lowercased()
        refreshTokens[home]?.removeAll { $0.clientID.caseInsensitiveCompare(clientID) == .orderedSame || ($0.familyID != nil && $0.familyID == familyID) }
        if refreshTokens[home]?.isEmpty == true { refreshTokens[home] = nil }
        accessTokens = accessTokens.filter { $0.key.homeAccountID != home }
        idTokens = idTokens.filter { $0.key.homeAccountID != home }
        accountEntries[home] = nil
        try await persist()
    }

    // MARK: Current account

    /// The account an app last signed in (`current`) and the one before it (`previous`), kept across runs.
    func principal(clientID: String) async throws -> (current: String?, previous: String?) {
        try await loadIfNeeded()
        guard case .object(let all)? = unknownSections[Self.accountMetadataSection],
              case .object(let entry)? = all[clientID.lowercased()]
        else { return (nil, nil) }
        func value(_ key: String) -> String? { if case .string(let s)? = entry[key], !s.isEmpty { return s }; return nil }
        return (value("principal_home_account_id"), value("previous_home_account_id"))
    }

    /// Records who is signed in now; the former principal becomes the previous one.
    func setPrincipal(clientID: String, homeAccountID: String?) async throws {
        let (current, previous) = try await principal(clientID: clientID)
        let newPrevious = current != nil && current?.lowercased() != homeAccountID?.lowercased() ? current : previous
        var all: [String: CacheValue] = [:]
        if case .object(let existing)? = unknownSections[Self.accountMetadataSection] { all = existing }
        all[clientID.lowercased()] = .object([
            "principal_home_account_id": homeAccountID.map(CacheValue.string) ?? .null,
            "previous_home_account_id": newPrevious.map(CacheValue.string) ?? .null,
        ])
        unknownSections[Self.accountMetadataSection] = .object(all)
        try await persist()
    }

    /// MSAL-for-Apple-style account metadata (signed-in and previous account per client); other SDKs
    /// keep it as an unknown section.
    static let accountMetadataSection = "AccountMetadata"

    /// Removes one access token (a claims challenge showed it was refused).
    func removeAccessToken(secret: String) async throws {
        for (key, list) in accessTokens where list.contains(where: { $0.secret == secret }) {
            accessTokens[key] = list.filter { $0.secret != secret }
        }
        try await persist()
    }

    // MARK: Persistence

    private func loadIfNeeded() async throws {
        guard !loaded else { return }
        loaded = true
        guard let persistence, let data = try await persistence.load(), !data.isEmpty else { return }
        let contents = try UnifiedCacheFormat.decode(data)
        for entry in contents.accessTokens { accessTokens[RealmKey(entry.homeAccountID, entry.clientID, entry.realm), default: []].append(entry) }
        for entry in contents.refreshTokens { refreshTokens[entry.homeAccountID.lowercased(), default: []].append(entry) }
        for entry in contents.idTokens { idTokens[RealmKey(entry.homeAccountID, entry.clientID, entry.realm), default: []].append(entry) }
        for entry in contents.accounts { accountEntries[entry.homeAccountID.lowercased(), default: []].append(entry) }
        for entry in contents.appMetadata { appMetadata[entry.clientID.lowercased(), default: []].append(entry) }
        unknownSections = contents.unknownSections
    }

    private func persist() async throws {
        guard let persistence else { return }
        let contents = UnifiedCacheFormat.Contents(
            accessTokens: accessTokens.values.flatMap { $0 }, refreshTokens: refreshTokens.values.flatMap { $0 },
            idTokens: idTokens.values.flatMap { $0 }, accounts: accountEntries.values.flatMap { $0 },
            appMetadata: appMetadata.values.flatMap { $0 }, unknownSections: unknownSections)
        try await persistence.save(try UnifiedCacheFormat.encode(contents))
    }
}

/// What one token response adds to the cache.
struct CacheArtefacts: Sendable {
    var accessToken: AccessTokenEntry?
    var refreshToken: RefreshTokenEntry?
    var idToken: IDTokenEntry?
    var account: AccountEntry?
    var appMetadata: AppMetadataEntry?
}
