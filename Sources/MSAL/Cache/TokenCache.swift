import Foundation
import Locking

/// The token cache: MSAL's unified schema (access, refresh and ID tokens, accounts, app metadata),
/// indexed by account so a silent lookup touches only that account's entries, and optionally
/// persisted through a ``TokenCachePersistence``.
///
/// The entries live in a `CacheIndex` behind a lock. Changes run on the actor, one at a time (then
/// across processes under the storage's lock); lookups read the index under the lock without a hop
/// onto the actor, and go through the actor only when the stored bytes changed and must be read.
public actor TokenCache {
    private let persistence: (any TokenCachePersistence)?
    private nonisolated let index: Locked<CacheIndex>
    /// Changes in this process run one at a time (then across processes under the storage's lock).
    private var changing = false
    private var waitingToChange: [CheckedContinuation<Void, Never>] = []
    private let buffers = SerializationBuffers()

    /// Makes an empty cache, loaded from `persistence` on first use.
    ///
    /// - Parameter persistence: where to keep the cache between runs; in memory only when `nil`.
    public init(persistence: (any TokenCachePersistence)? = nil) {
        self.persistence = persistence
        index = Locked(CacheIndex(loaded: persistence == nil))
    }

    // MARK: Lookups

    /// The access token for this account, client and tenant whose scopes include `scopes`
    /// (case-insensitive), on any of `environments`.
    nonisolated func accessToken(
        homeAccountID: String, clientID: String, realm: String, environments: Set<String>,
        scopes: [String]
    ) async throws -> AccessTokenEntry? {
        let key = CacheIndex.RealmKey(homeAccountID, clientID, realm)
        return try await read { $0.accessToken(key, environments: environments, scopes: scopes)?.token }
    }

    /// The access token for `scopes` (as ``accessToken(homeAccountID:clientID:realm:environments:scopes:)``)
    /// that expires after `expiringAfter`, filed under `realm` or else the first of `otherRealms` that has
    /// one, with the ID token of the same account and client (from that realm, else from `tenant`), in one
    /// visit to the cache.
    ///
    /// - Parameters:
    ///   - otherRealms: asked only when `realm` has no such token.
    ///   - environment: the environment entries are most likely under, compared first.
    /// - Returns: the tokens and the access token's scopes as a list.
    nonisolated func cachedTokens(
        homeAccountID: String, clientID: String, realm: String, otherRealms: () -> [String], tenant: String,
        environment: String, environments: Set<String>, scopes: [String],
        expiringAfter: Date
    ) async throws -> (AccessTokenEntry, IDTokenEntry?, [String])? {
        try await read { index in
            func tokens(in realm: String) -> (AccessTokenEntry, IDTokenEntry?, [String])? {
                let key = CacheIndex.RealmKey(homeAccountID, clientID, realm)
                guard
                    let (token, idToken, granted) = index.tokens(
                        key, environment: environment, environments: environments, scopes: scopes),
                    token.expiresOn > expiringAfter
                else { return nil }
                let tenantKey = CacheIndex.RealmKey(homeAccountID, clientID, tenant)
                return (token, idToken ?? index.idToken(tenantKey, environments: environments), granted)
            }
            if let found = tokens(in: realm) { return found }
            for other in otherRealms() { if let found = tokens(in: other) { return found } }
            return nil
        }
    }

    /// Refresh tokens of the account usable by `clientID`: its own, then the family's, newest first. While the
    /// cache holds no app metadata for the client, any family's (FOCI) count: it may be a family member that has
    /// not signed in yet (as MSAL Python tries them).
    nonisolated func refreshTokens(homeAccountID: String, environments: Set<String>, clientID: String) async throws
        -> [RefreshTokenEntry]
    {
        try await read { index in
            let metadata = index.appMetadata(clientID: clientID, environments: environments)
            return index.refreshTokens(
                homeAccountID: homeAccountID, environments: environments, clientID: clientID,
                familyID: metadata == nil ? "1" : metadata?.familyID)
        }
    }

    nonisolated func idToken(homeAccountID: String, clientID: String, realm: String, environments: Set<String>)
        async throws -> IDTokenEntry?
    {
        let key = CacheIndex.RealmKey(homeAccountID, clientID, realm)
        return try await read { $0.idToken(key, environments: environments) }
    }

    /// ID tokens of an account for this client in these tenants (direct lookups, no scan).
    nonisolated func idTokens(homeAccountID: String, clientID: String, realms: [String]) async throws -> [IDTokenEntry]
    {
        try await read { $0.idTokens(homeAccountID: homeAccountID, clientID: clientID, realms: realms) }
    }

    /// True when the cache holds any account, without decoding one.
    nonisolated func hasAccounts() async throws -> Bool {
        try await read { $0.hasAccounts }
    }

    nonisolated func accounts() async throws -> [AccountEntry] {
        try await read { $0.allAccounts() }
    }

    /// The account entries (one per tenant and environment) of one home account.
    nonisolated func accounts(homeAccountID: String) async throws -> [AccountEntry] {
        try await read { $0.accounts(homeAccountID: homeAccountID) }
    }

    nonisolated func appMetadata(clientID: String, environments: Set<String>) async throws -> AppMetadataEntry? {
        try await read { $0.appMetadata(clientID: clientID, environments: environments) }
    }

    /// Runs `lookup` on the index once it reflects the stored bytes: at once when they did not change
    /// since they were read (a `stat` for a file), else after the actor read them again.
    private nonisolated func read<T: Sendable>(_ lookup: (inout CacheIndex) -> T) async throws -> T {
        if let persistence {
            let version = try await persistence.version()
            if !index.withLock({ $0.isCurrent(version) }) { try await loadIfNeeded() }
        }
        return index.withLock { lookup(&$0) }
    }

    // MARK: Changes

    /// Stores the artefacts of one token response.
    ///
    /// A new access token replaces cached ones for the same account, client and tenant whose scopes
    /// intersect it (OpenID scopes such as `openid` and `profile` do not count). A refresh token that was
    /// used is updated in place (as MSAL Python does).
    func store(_ artefacts: CacheArtefacts, replacingRefreshToken used: String?) async throws {
        try await change { $0.apply(artefacts, replacingRefreshToken: used) }
    }

    /// Forgets an account for one client, or every client when `clientID` is `nil`: its refresh tokens (and the
    /// family's), and the account's access tokens, ID tokens and account entries.
    func removeAccount(homeAccountID: String, clientID: String?, familyID: String?) async throws {
        try await change { $0.removeAccount(homeAccountID: homeAccountID, clientID: clientID, familyID: familyID) }
    }

    // MARK: Serialization

    /// The cache in MSAL's unified JSON, as MSAL Python's `serialize()` writes it (for apps that keep
    /// the bytes somewhere a ``TokenCachePersistence`` does not reach).
    ///
    /// - Throws: when the persisted cache cannot be read.
    public func serialize() async throws -> Data {
        try await loadIfNeeded()
        return try UnifiedCacheFormat.encode(index.withLock(\.entryGroups), buffers: buffers)
    }

    /// Replaces the cache with `data` in MSAL's unified JSON (MSAL Python's `deserialize`), and
    /// persists it when the cache is persistent.
    ///
    /// - Throws: ``MSALError`` `cacheCorrupted` when `data` is not a token cache; persistence errors.
    public func deserialize(_ data: Data) async throws {
        let replacement = try UnifiedCacheFormat.read(data)
        try await change { $0.install(replacement) }
    }

    // MARK: Current account

    /// The account an app last signed in (`current`) and the one before it (`previous`), kept across runs.
    nonisolated func principal(clientID: String) async throws -> (
        current: PrincipalAccount?, previous: PrincipalAccount?
    ) {
        try await read { Self.storedPrincipal(in: $0, clientID: clientID) }
    }

    private static func storedPrincipal(in index: CacheIndex, clientID: String) -> (
        current: PrincipalAccount?, previous: PrincipalAccount?
    ) {
        guard case .object(let all)? = index.unknownSections[accountMetadataSection],
            case .object(let entry)? = all[clientID.lowercasedIfNeeded]
        else { return (nil, nil) }
        func value(_ key: String) -> String? {
            if case .string(let s)? = entry[key], !s.isEmpty { return s }
            return nil
        }
        func account(_ prefix: String) -> PrincipalAccount? {
            value("\(prefix)_home_account_id").map {
                PrincipalAccount(
                    homeAccountID: $0, username: value("\(prefix)_username"),
                    environment: value("\(prefix)_account_environment"))
            }
        }
        return (account("principal"), account("previous"))
    }

    /// Records who is signed in now; the former principal becomes the previous one.
    func setPrincipal(clientID: String, _ account: PrincipalAccount?) async throws {
        try await change { index in
            let (current, previous) = Self.storedPrincipal(in: index, clientID: clientID)
            let newPrevious =
                current != nil && current?.homeAccountID.lowercasedIfNeeded != account?.homeAccountID.lowercasedIfNeeded
                ? current : previous
            var all: [String: CacheValue] = [:]
            if case .object(let existing)? = index.unknownSections[Self.accountMetadataSection] { all = existing }
            func fields(_ prefix: String, _ account: PrincipalAccount?) -> [String: CacheValue] {
                [
                    "\(prefix)_home_account_id": account.map { .string($0.homeAccountID) } ?? .null,
                    "\(prefix)_username": account?.username.map(CacheValue.string) ?? .null,
                    "\(prefix)_account_environment": account?.environment.map(CacheValue.string) ?? .null,
                ]
            }
            all[clientID.lowercasedIfNeeded] = .object(
                fields("principal", account).merging(fields("previous", newPrevious)) { a, _ in a })
            index.setUnknownSection(Self.accountMetadataSection, .object(all))
        }
    }

    /// MSAL-for-Apple-style account metadata (signed-in and previous account per client); other SDKs
    /// keep it as an unknown section.
    static let accountMetadataSection = "AccountMetadata"

    /// Removes one of the account's access tokens (a claims challenge showed it was refused).
    func removeAccessToken(homeAccountID: String, secret: String) async throws {
        try await change { $0.removeAccessToken(homeAccountID: homeAccountID, secret: secret) }
    }

    /// Forgets the cached access token whose value is `accessToken`, one a resource refused, so that the next
    /// request for its scopes by an app on this cache gets a new one from the identity platform (with the
    /// account's refresh token, or the app's credential). Nothing else is removed; a value no cached token has
    /// changes nothing.
    ///
    ///     try await app.configuration.cache.removeAccessToken(refused, account: account)
    ///
    /// An app that handed out the token in this process may still hold it in memory (a confidential client
    /// remembers its latest app tokens): a new app on the cache, such as the next run of a tool, gets a new one.
    ///
    /// - Parameters:
    ///   - accessToken: the token's value, as the app handed it out.
    ///   - account: the signed-in account it was issued to; `nil` for an app's own token (client credentials or a
    ///     managed identity, kept here by a ``PartitionedTokenCache/appTokens`` cache).
    public func removeAccessToken(_ accessToken: String, account: Account?) async throws {
        try await removeAccessToken(homeAccountID: account?.identifier ?? "", secret: accessToken)
    }

    // MARK: Persistence

    /// Reloads when the stored bytes changed since the last load or save (or were never loaded).
    private func loadIfNeeded() async throws {
        guard let persistence else { return }
        let version = try await persistence.version()
        if index.withLock({ $0.isCurrent(version) }) { return }
        try await reload(persistence, version: version, holdingLock: false)
    }

    /// Replaces the in-memory cache with the stored one. Unreadable bytes may be a peer's write in
    /// progress (MSAL Python rewrites the file in place), so they are read again under the lock;
    /// still unreadable, they are set aside and the cache starts empty.
    private func reload(_ persistence: any TokenCachePersistence, version: StorageVersion?, holdingLock: Bool)
        async throws
    {
        let stored: UnifiedCacheFormat.Contents
        var version = version
        do {
            stored = try await persistence.load().map(UnifiedCacheFormat.read) ?? .init()
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
        index.withLock { index in
            index.install(stored)
            index.seenVersion = version
            index.loaded = true
        }
    }

    /// How often a change is applied again when its save meets another process's (``MSALError/Code-swift.enum/cacheConflict``).
    static let attemptsOnConflict = 5

    /// Applies `edit` to the latest stored cache and saves it, as one step under the lock; a save that
    /// meets another writer's is applied again to the stored cache, up to ``attemptsOnConflict`` times.
    private func change(_ edit: (inout CacheIndex) -> Void) async throws {
        guard let persistence else {
            index.withLock { edit(&$0) }
            return
        }
        try await exclusively(persistence) {
            for attempt in 1...Self.attemptsOnConflict {
                let version = try await persistence.version()
                if !index.withLock({ $0.isCurrent(version) }) {
                    try await reload(persistence, version: version, holdingLock: true)
                }
                let contents = index.withLock { index in
                    edit(&index)
                    return index.entryGroups
                }
                do {
                    try await persistence.save(try UnifiedCacheFormat.encode(contents, buffers: buffers))
                } catch let error as MSALError where error.internalCode == .cacheConflict {
                    // Another process saved first: read its version and apply the edit to it again.
                    index.withLock { $0.loaded = false }
                    if attempt < Self.attemptsOnConflict { continue }
                    throw error
                } catch {
                    index.withLock { $0.loaded = false }  // the stored cache is the truth: forget the unsaved edit
                    throw error
                }
                let saved = try await persistence.version()
                index.withLock { $0.seenVersion = saved }
                return
            }
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
