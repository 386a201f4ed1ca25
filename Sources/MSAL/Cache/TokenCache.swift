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
            self.homeAccountID = homeAccountID.lowercasedIfNeeded
            self.clientID = clientID.lowercasedIfNeeded
            self.realm = realm.lowercasedIfNeeded
        }
    }

    private let persistence: (any TokenCachePersistence)?
    private var loaded = false
    /// The stored bytes' version when last loaded or saved.
    private var seenVersion: StorageVersion?
    /// Changes in this process run one at a time (then across processes under the storage's lock).
    private var changing = false
    private var waitingToChange: [CheckedContinuation<Void, Never>] = []
    private var accessTokens: [RealmKey: [AccessTokenEntry]] = [:]
    private var idTokens: [RealmKey: [IDTokenEntry]] = [:]
    private var refreshTokens: [String: [RefreshTokenEntry]] = [:]
    private var accountEntries: [String: [AccountEntry]] = [:]
    private var appMetadata: [String: [AppMetadataEntry]] = [:]
    private var unknownSections: [String: CacheValue] = [:]
    private var opaqueEntries: [String: [String: CacheValue]] = [:]
    private var scopeSets: [String: (set: Set<String>, list: [String])] = [:]
    private let buffers = SerializationBuffers()

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
        return accessToken(RealmKey(homeAccountID, clientID, realm), environments: environments, scopes: scopes)?.token
    }

    /// The access token for `scopes` (as ``accessToken(homeAccountID:clientID:realm:environments:scopes:)``)
    /// with the ID token of the same account, client and tenant, in one visit to the cache.
    ///
    /// - Returns: the tokens and the access token's scopes as a list.
    func cachedTokens(homeAccountID: String, clientID: String, realm: String, environments: Set<String>,
                      scopes: [String]) async throws -> (AccessTokenEntry, IDTokenEntry?, [String])? {
        try await loadIfNeeded()
        let key = RealmKey(homeAccountID, clientID, realm)
        guard let (token, grantedScopes) = accessToken(key, environments: environments, scopes: scopes) else { return nil }
        let idToken = idTokens[key]?.first { environments.contains($0.environment.lowercasedIfNeeded) }
        return (token, idToken, grantedScopes)
    }

    private func accessToken(_ key: RealmKey, environments: Set<String>, scopes: [String]) -> (token: AccessTokenEntry, scopes: [String])? {
        for token in accessTokens[key] ?? [] where environments.contains(token.environment.lowercasedIfNeeded) {
            let granted = scopeSet(of: token.target)
            if Scopes.isSubset(scopes, of: granted.set) { return (token, granted.list) }
        }
        return nil
    }

    /// The lower-cased scopes of a `target`, remembered: many tokens share a few targets, and a silent
    /// hit should not split and lower-case the string again.
    private func scopeSet(of target: String) -> (set: Set<String>, list: [String]) {
        if let known = scopeSets[target] { return known }
        if scopeSets.count >= 4096 { scopeSets.removeAll(keepingCapacity: true) }
        let list = target.split(separator: " ").map(String.init)
        let entry = (Scopes.lowercasedSet(list), list)
        scopeSets[target] = entry
        return entry
    }

    /// Refresh tokens of the account usable by `clientID`: its own, then the family's, newest first.
    func refreshTokens(homeAccountID: String, environments: Set<String>, clientID: String, familyID: String?) async throws -> [RefreshTokenEntry] {
        try await loadIfNeeded()
        let candidates = (refreshTokens[homeAccountID.lowercasedIfNeeded] ?? []).filter { environments.contains($0.environment.lowercasedIfNeeded) }
            .sorted { ($0.lastModification ?? .distantPast) > ($1.lastModification ?? .distantPast) }
        let own = candidates.filter { $0.clientID.caseInsensitiveCompare(clientID) == .orderedSame && $0.familyID == nil }
        let family = familyID.map { id in candidates.filter { $0.familyID == id } } ?? []
        let ownFamilyTokens = candidates.filter { $0.clientID.caseInsensitiveCompare(clientID) == .orderedSame && $0.familyID != nil }
        var seen = Set<String>()
        return (own + ownFamilyTokens + family).filter { seen.insert($0.secret).inserted }
    }

    func idToken(homeAccountID: String, clientID: String, realm: String, environments: Set<String>) async throws -> IDTokenEntry? {
        try await loadIfNeeded()
        return idTokens[RealmKey(homeAccountID, clientID, realm)]?.first { environments.contains($0.environment.lowercasedIfNeeded) }
    }

    /// ID tokens of an account for this client in these tenants (direct lookups, no scan).
    func idTokens(homeAccountID: String, clientID: String, realms: [String]) async throws -> [IDTokenEntry] {
        try await loadIfNeeded()
        return Set(realms.map { RealmKey(homeAccountID, clientID, $0) }).flatMap { idTokens[$0] ?? [] }
    }

    func accounts() async throws -> [AccountEntry] {
        try await loadIfNeeded()
        return accountEntries.values.flatMap { $0 }
    }

    /// The account entries (one per tenant and environment) of one home account.
    func accounts(homeAccountID: String) async throws -> [AccountEntry] {
        try await loadIfNeeded()
        return accountEntries[homeAccountID.lowercasedIfNeeded] ?? []
    }

    func appMetadata(clientID: String, environments: Set<String>) async throws -> AppMetadataEntry? {
        try await loadIfNeeded()
        return appMetadata[clientID.lowercasedIfNeeded]?.first { environments.contains($0.environment.lowercasedIfNeeded) }
    }

    // MARK: Changes

    /// Stores the artefacts of one token response.
    ///
    /// A new access token replaces cached ones for the same account, client and tenant whose scopes
    /// intersect it (OpenID scopes such as `openid` and `profile` do not count). A refresh token that was used is updated in place (as MSAL Python does).
    func store(_ artefacts: CacheArtefacts, replacingRefreshToken used: String?) async throws {
        try await change { apply(artefacts, replacingRefreshToken: used) }
    }

    private func apply(_ artefacts: CacheArtefacts, replacingRefreshToken used: String?) {
        if let at = artefacts.accessToken {
            let key = RealmKey(at.homeAccountID, at.clientID, at.realm)
            let scopes = at.scopeSet.subtracting(Scopes.oidc)
            accessTokens[key, default: []].removeAll { $0.environment == at.environment && !$0.scopeSet.isDisjoint(with: scopes) }
            accessTokens[key, default: []].append(at)
        }
        if let rt = artefacts.refreshToken {
            let home = rt.homeAccountID.lowercasedIfNeeded
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
            let home = account.homeAccountID.lowercasedIfNeeded
            accountEntries[home, default: []].removeAll { $0.environment == account.environment && $0.realm.lowercasedIfNeeded == account.realm.lowercasedIfNeeded }
            accountEntries[home, default: []].append(account)
        }
        if let metadata = artefacts.appMetadata {
            let client = metadata.clientID.lowercasedIfNeeded
            appMetadata[client, default: []].removeAll { $0.environment == metadata.environment }
            appMetadata[client, default: []].append(metadata)
        }
    }

    /// Forgets an account for one client: its refresh tokens (and the family's), and the account's
    /// access tokens, ID tokens and account entries.
    func removeAccount(homeAccountID: String, clientID: String, familyID: String?) async throws {
        let home = homeAccountID.lowercasedIfNeeded
        try await change {
            refreshTokens[home]?.removeAll { $0.clientID.caseInsensitiveCompare(clientID) == .orderedSame || ($0.familyID != nil && $0.familyID == familyID) }
            if refreshTokens[home]?.isEmpty == true { refreshTokens[home] = nil }
            accessTokens = accessTokens.filter { $0.key.homeAccountID != home }
            idTokens = idTokens.filter { $0.key.homeAccountID != home }
            accountEntries[home] = nil
        }
    }

    // MARK: Serialization

    /// The cache in MSAL's unified JSON, as MSAL Python's `serialize()` writes it (for apps that keep
    /// the bytes somewhere a ``TokenCachePersistence`` does not reach).
    ///
    /// - Throws: when the persisted cache cannot be read.
    public func serialize() async throws -> Data {
        try await loadIfNeeded()
        return try UnifiedCacheFormat.encode(contents, buffers: buffers)
    }

    /// Replaces the cache with `data` in MSAL's unified JSON (MSAL Python's `deserialize`), and
    /// persists it when the cache is persistent.
    ///
    /// - Throws: ``MSALError`` `cacheCorrupted` when `data` is not a token cache; persistence errors.
    public func deserialize(_ data: Data) async throws {
        let replacement = try UnifiedCacheFormat.decode(data)
        try await change { install(replacement) }
    }

    // MARK: Current account

    /// The account an app last signed in (`current`) and the one before it (`previous`), kept across runs.
    func principal(clientID: String) async throws -> (current: PrincipalAccount?, previous: PrincipalAccount?) {
        try await loadIfNeeded()
        return storedPrincipal(clientID: clientID)
    }

    private func storedPrincipal(clientID: String) -> (current: PrincipalAccount?, previous: PrincipalAccount?) {
        guard case .object(let all)? = unknownSections[Self.accountMetadataSection],
              case .object(let entry)? = all[clientID.lowercasedIfNeeded]
        else { return (nil, nil) }
        func value(_ key: String) -> String? { if case .string(let s)? = entry[key], !s.isEmpty { return s }; return nil }
        func account(_ prefix: String) -> PrincipalAccount? {
            value("\(prefix)_home_account_id").map {
                PrincipalAccount(homeAccountID: $0, username: value("\(prefix)_username"), environment: value("\(prefix)_account_environment"))
            }
        }
        return (account("principal"), account("previous"))
    }

    /// Records who is signed in now; the former principal becomes the previous one.
    func setPrincipal(clientID: String, _ account: PrincipalAccount?) async throws {
        try await change {
            let (current, previous) = storedPrincipal(clientID: clientID)
            let newPrevious = current != nil && current?.homeAccountID.lowercasedIfNeeded != account?.homeAccountID.lowercasedIfNeeded ? current : previous
            var all: [String: CacheValue] = [:]
            if case .object(let existing)? = unknownSections[Self.accountMetadataSection] { all = existing }
            func fields(_ prefix: String, _ account: PrincipalAccount?) -> [String: CacheValue] {
                ["\(prefix)_home_account_id": account.map { .string($0.homeAccountID) } ?? .null,
                 "\(prefix)_username": account?.username.map(CacheValue.string) ?? .null,
                 "\(prefix)_account_environment": account?.environment.map(CacheValue.string) ?? .null]
            }
            all[clientID.lowercasedIfNeeded] = .object(fields("principal", account).merging(fields("previous", newPrevious)) { a, _ in a })
            unknownSections[Self.accountMetadataSection] = .object(all)
        }
    }

    /// MSAL-for-Apple-style account metadata (signed-in and previous account per client); other SDKs
    /// keep it as an unknown section.
    static let accountMetadataSection = "AccountMetadata"

    /// Removes one access token (a claims challenge showed it was refused).
    func removeAccessToken(secret: String) async throws {
        try await change {
            for (key, list) in accessTokens where list.contains(where: { $0.secret == secret }) {
                accessTokens[key] = list.filter { $0.secret != secret }
            }
        }
    }

    // MARK: Persistence

    /// Reloads when the stored bytes changed since the last load or save (or were never loaded).
    private func loadIfNeeded() async throws {
        guard let persistence else { return }
        let version = try await persistence.version()
        if loaded && (version == nil || version == seenVersion) { return }
        try await reload(persistence, version: version, holdingLock: false)
    }

    /// Replaces the in-memory cache with the stored one. Unreadable bytes may be a peer's write in
    /// progress (MSAL Python rewrites the file in place), so they are read again under the lock;
    /// still unreadable, they are set aside and the cache starts empty.
    private func reload(_ persistence: any TokenCachePersistence, version: StorageVersion?, holdingLock: Bool) async throws {
        let stored: UnifiedCacheFormat.Contents
        var version = version
        do {
            stored = try await persistence.load().map(UnifiedCacheFormat.decode) ?? .init()
        } catch let error as MSALError where error.internalCode == .cacheCorrupted {
            if !holdingLock {
                try await exclusively(persistence) {
                    try await reload(persistence, version: try await persistence.version(), holdingLock: true)
                }
                return
            }
            _ = try await persistence.setAside(reason: error.message)
            version = try await persistence.version()
            stored = .init()
        }
        install(stored)
        seenVersion = version
        loaded = true
    }

    /// Indexes `contents` in place of the current entries.
    private func install(_ contents: UnifiedCacheFormat.Contents) {
        accessTokens = [:]
        idTokens = [:]
        refreshTokens = [:]
        accountEntries = [:]
        appMetadata = [:]
        accessTokens.reserveCapacity(contents.accessTokens.count)
        idTokens.reserveCapacity(contents.idTokens.count)
        refreshTokens.reserveCapacity(contents.refreshTokens.count)
        accountEntries.reserveCapacity(contents.accounts.count)
        for entry in contents.accessTokens { accessTokens[RealmKey(entry.homeAccountID, entry.clientID, entry.realm), default: []].append(entry) }
        for entry in contents.refreshTokens { refreshTokens[entry.homeAccountID.lowercasedIfNeeded, default: []].append(entry) }
        for entry in contents.idTokens { idTokens[RealmKey(entry.homeAccountID, entry.clientID, entry.realm), default: []].append(entry) }
        for entry in contents.accounts { accountEntries[entry.homeAccountID.lowercasedIfNeeded, default: []].append(entry) }
        for entry in contents.appMetadata { appMetadata[entry.clientID.lowercasedIfNeeded, default: []].append(entry) }
        unknownSections = contents.unknownSections
        opaqueEntries = contents.opaqueEntries
    }

    /// Everything in the cache, for encoding.
    private var contents: UnifiedCacheFormat.Contents {
        UnifiedCacheFormat.Contents(
            accessTokens: accessTokens.values.flatMap { $0 }, refreshTokens: refreshTokens.values.flatMap { $0 },
            idTokens: idTokens.values.flatMap { $0 }, accounts: accountEntries.values.flatMap { $0 },
            appMetadata: appMetadata.values.flatMap { $0 }, unknownSections: unknownSections, opaqueEntries: opaqueEntries)
    }

    /// Applies `edit` to the latest stored cache and saves it, as one step under the lock.
    private func change(_ edit: () -> Void) async throws {
        guard let persistence else {
            edit()
            return
        }
        try await exclusively(persistence) {
            let version = try await persistence.version()
            if !loaded || (version != nil && version != seenVersion) {
                try await reload(persistence, version: version, holdingLock: true)
            }
            edit()
            do {
                try await persistence.save(try UnifiedCacheFormat.encode(contents, buffers: buffers))
            } catch {
                loaded = false  // the stored cache is the truth: forget the unsaved edit
                throw error
            }
            seenVersion = try await persistence.version()
        }
    }

    /// Runs `body` alone in this process and under the storage's lock.
    private func exclusively(_ persistence: any TokenCachePersistence, _ body: () async throws -> Void) async throws {
        if changing {
            await withCheckedContinuation { waitingToChange.append($0) }
        } else {
            changing = true
        }
        defer {
            if waitingToChange.isEmpty { changing = false } else { waitingToChange.removeFirst().resume() }
        }
        let lock = try await persistence.lock()
        defer { lock?.release() }
        try await body()
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
