import Foundation

/// The token cache's entries, indexed by account so a lookup touches only that account's entries,
/// and the version of the stored bytes they reflect. A value: ``TokenCache`` keeps it behind a lock,
/// changes it one change at a time, and lets lookups read it without a hop onto the actor.
///
/// Entries read from a file stay as spans of its bytes (``StoredEntries``) until a lookup first needs
/// them: loading costs a scan and one index insertion per entry, and a save copies untouched entries.
struct CacheIndex: Sendable {
    /// An account, client and tenant, lower-cased: where an account's access and ID tokens for one app are filed.
    struct RealmKey {
        let homeAccountID: String
        let clientID: String
        let realm: String

        init(_ homeAccountID: String, _ clientID: String, _ realm: String) {
            self.homeAccountID = homeAccountID.lowercasedIfNeeded
            self.clientID = clientID.lowercasedIfNeeded
            self.realm = realm.lowercasedIfNeeded
        }
    }

    /// Whether the stored bytes were read (always true without persistence).
    var loaded: Bool
    /// The stored bytes' version when last loaded or saved.
    var seenVersion: StorageVersion?
    /// An account's access and ID tokens for one client and tenant: one lookup finds both.
    private struct RealmEntries {
        var accessTokens = StoredEntries<AccessTokenEntry>()
        var idTokens = StoredEntries<IDTokenEntry>()

        mutating func appendStored(_ accessToken: StoredSpan, _ idToken: StoredSpan, in file: Data?) {
            accessTokens.appendStored(accessToken, in: file)
            idTokens.appendStored(idToken, in: file)
        }
    }

    /// One client and tenant's tokens of an account.
    private struct RealmSlot {
        let clientID: String
        let realm: String
        var entries = RealmEntries()

        func isFor(_ key: RealmKey) -> Bool { clientID == key.clientID && realm == key.realm }
    }

    /// Each account's slots, by home account id alone: it nearly always tells accounts apart (most have one
    /// client and tenant), hashing a key of the three would double the hashing of every lookup, and a key type of
    /// its own would cost a conformance search at start (see "Start-up" in the library's README).
    private var realms: [String: [RealmSlot]] = [:]
    private var refreshTokens: [String: StoredEntries<RefreshTokenEntry>] = [:]
    private var accountEntries: [String: StoredEntries<AccountEntry>] = [:]
    private var appMetadata: [String: StoredEntries<AppMetadataEntry>] = [:]
    /// The bytes of the file last installed, which stored entries point into.
    private var file: Data?
    private(set) var unknownSections: [String: CacheValue] = [:]
    private var opaqueEntries: [String: [String: CacheValue]] = [:]
    private var scopeSets: [String: (set: Set<String>, list: [String])] = [:]

    init(loaded: Bool) {
        self.loaded = loaded
    }

    /// True when the entries reflect the stored bytes of `version` (`nil`: storage without versions).
    func isCurrent(_ version: StorageVersion?) -> Bool {
        loaded && (version == nil || version == seenVersion)
    }

    // MARK: Lookups

    mutating func accessToken(_ key: RealmKey, environments: Set<String>, scopes: [String]) -> (
        token: AccessTokenEntry, scopes: [String]
    )? {
        accessToken(in: realm(key)?.accessTokens, environment: nil, environments: environments, scopes: scopes)
    }

    /// The access token for `scopes` with the ID token of the same account, client and tenant.
    ///
    /// - Parameter environment: the environment entries are most likely under: comparing with it is
    ///   cheaper than hashing into `environments`.
    mutating func tokens(_ key: RealmKey, environment: String, environments: Set<String>, scopes: [String]) -> (
        AccessTokenEntry, IDTokenEntry?, [String]
    )? {
        let entries = realm(key)
        guard
            let (token, grantedScopes) = accessToken(
                in: entries?.accessTokens, environment: environment, environments: environments, scopes: scopes)
        else { return nil }
        let idToken = entries?.idTokens.first {
            $0.environment == environment || environments.contains($0.environment.lowercasedIfNeeded)
        }
        return (token, idToken, grantedScopes)
    }

    /// The access and ID tokens of one account, client and tenant, decoded on first use.
    private mutating func realm(_ key: RealmKey) -> (accessTokens: [AccessTokenEntry], idTokens: [IDTokenEntry])? {
        guard let entries = realms[key.homeAccountID]?.first(where: { $0.isFor(key) })?.entries else { return nil }
        if let accessTokens = entries.accessTokens.decodedEntries, let idTokens = entries.idTokens.decodedEntries {
            return (accessTokens, idTokens)
        }
        let file = file
        return Self.modify(key, in: &realms) { ($0.accessTokens.entries(in: file), $0.idTokens.entries(in: file)) }
    }

    /// Changes the tokens of `key` in `realms`, filing an empty slot first when there is none.
    private static func modify<T>(
        _ key: RealmKey, in realms: inout [String: [RealmSlot]], _ change: (inout RealmEntries) -> T
    ) -> T {
        Self.modify(key, in: &realms[key.homeAccountID, default: []], change)
    }

    private static func modify<T>(_ key: RealmKey, in slots: inout [RealmSlot], _ change: (inout RealmEntries) -> T)
        -> T
    {
        if let index = slots.firstIndex(where: { $0.isFor(key) }) { return change(&slots[index].entries) }
        slots.append(RealmSlot(clientID: key.clientID, realm: key.realm))
        return change(&slots[slots.count - 1].entries)
    }

    /// The entries of one slot of `slots`, decoded on first use.
    private static func entries<Entry: StoredCacheEntry>(
        _ slots: inout [String: StoredEntries<Entry>], _ key: String, file: Data?
    )
        -> [Entry]
    {
        guard let slot = slots[key] else { return [] }
        return slot.decodedEntries ?? slots[key]!.entries(in: file)
    }

    private mutating func accessToken(
        in tokens: [AccessTokenEntry]?, environment: String?, environments: Set<String>,
        scopes: [String]
    ) -> (token: AccessTokenEntry, scopes: [String])? {
        for token in tokens ?? []
        where token.environment == environment || environments.contains(token.environment.lowercasedIfNeeded) {
            let granted = scopeSet(of: token.target)
            if Scopes.isSubset(scopes, of: granted.set) { return (token, granted.list) }
        }
        return nil
    }

    /// The scopes of a `target`, lower-cased and as written (so a request in the server's case matches
    /// without lower-casing it), remembered: many tokens share a few targets, and a silent hit should not
    /// split and lower-case the string again.
    private mutating func scopeSet(of target: String) -> (set: Set<String>, list: [String]) {
        if let known = scopeSets[target] { return known }
        if scopeSets.count >= 4096 { scopeSets.removeAll(keepingCapacity: true) }
        let list = Scopes.split(target)
        let entry = (Scopes.lowercasedSet(list).union(list), list)
        scopeSets[target] = entry
        return entry
    }

    /// Refresh tokens of the account usable by `clientID`: its own, then the family's, newest first.
    mutating func refreshTokens(homeAccountID: String, environments: Set<String>, clientID: String, familyID: String?)
        -> [RefreshTokenEntry]
    {
        let candidates = Self.entries(&refreshTokens, homeAccountID.lowercasedIfNeeded, file: file).filter {
            environments.contains($0.environment.lowercasedIfNeeded)
        }
        .sorted { ($0.lastModification ?? .distantPast) > ($1.lastModification ?? .distantPast) }
        let own = candidates.filter {
            $0.clientID.equalsIgnoringCase(clientID) && $0.familyID == nil
        }
        let family = familyID.map { id in candidates.filter { $0.familyID == id } } ?? []
        let ownFamilyTokens = candidates.filter {
            $0.clientID.equalsIgnoringCase(clientID) && $0.familyID != nil
        }
        var seen = Set<String>()
        return (own + ownFamilyTokens + family).filter { seen.insert($0.secret).inserted }
    }

    mutating func idToken(_ key: RealmKey, environments: Set<String>) -> IDTokenEntry? {
        realm(key)?.idTokens.first { environments.contains($0.environment.lowercasedIfNeeded) }
    }

    /// ID tokens of an account for this client in these tenants (direct lookups, no scan).
    mutating func idTokens(homeAccountID: String, clientID: String, realms: [String]) -> [IDTokenEntry] {
        var seen = Set<String>()
        return realms.map { RealmKey(homeAccountID, clientID, $0) }.filter { seen.insert($0.realm).inserted }
            .flatMap { realm($0)?.idTokens ?? [] }
    }

    /// True when some account is filed (nothing is decoded).
    var hasAccounts: Bool { !accountEntries.isEmpty }

    /// Every account entry (decoding those not used yet).
    mutating func allAccounts() -> [AccountEntry] {
        Array(accountEntries.keys).flatMap { Self.entries(&accountEntries, $0, file: file) }
    }

    /// The account entries (one per tenant and environment) of one home account.
    mutating func accounts(homeAccountID: String) -> [AccountEntry] {
        Self.entries(&accountEntries, homeAccountID.lowercasedIfNeeded, file: file)
    }

    mutating func appMetadata(clientID: String, environments: Set<String>) -> AppMetadataEntry? {
        Self.entries(&appMetadata, clientID.lowercasedIfNeeded, file: file).first {
            environments.contains($0.environment.lowercasedIfNeeded)
        }
    }

    // MARK: Changes

    /// Adds the artefacts of one token response (see ``TokenCache/store(_:replacingRefreshToken:)``).
    mutating func apply(_ artefacts: CacheArtefacts, replacingRefreshToken used: String?) {
        let file = file
        if let at = artefacts.accessToken {
            let scopes = at.scopeSet.subtracting(Scopes.oidc)
            Self.modify(RealmKey(at.homeAccountID, at.clientID, at.realm), in: &realms) {
                $0.accessTokens.modify(in: file) { tokens in
                    tokens.removeAll { $0.environment == at.environment && !$0.scopeSet.isDisjoint(with: scopes) }
                    tokens.append(at)
                }
            }
        }
        if let rt = artefacts.refreshToken {
            refreshTokens[rt.homeAccountID.lowercasedIfNeeded, default: StoredEntries()].modify(in: file) { list in
                if let used, let index = list.firstIndex(where: { $0.secret == used }) {
                    list[index].secret = rt.secret
                    list[index].lastModification = rt.lastModification
                    if rt.familyID != nil { list[index].familyID = rt.familyID }
                } else if let index = list.firstIndex(where: {
                    $0.environment == rt.environment && $0.clientID.equalsIgnoringCase(rt.clientID)
                        && $0.familyID == rt.familyID
                }) {
                    list[index] = rt
                } else {
                    list.append(rt)
                }
            }
        }
        if let idToken = artefacts.idToken {
            Self.modify(RealmKey(idToken.homeAccountID, idToken.clientID, idToken.realm), in: &realms) {
                $0.idTokens.modify(in: file) { tokens in
                    tokens.removeAll { $0.environment == idToken.environment }
                    tokens.append(idToken)
                }
            }
        }
        if let account = artefacts.account {
            accountEntries[account.homeAccountID.lowercasedIfNeeded, default: StoredEntries()].modify(in: file) {
                accounts in
                accounts.removeAll {
                    $0.environment == account.environment
                        && $0.realm.lowercasedIfNeeded == account.realm.lowercasedIfNeeded
                }
                accounts.append(account)
            }
        }
        if let metadata = artefacts.appMetadata {
            appMetadata[metadata.clientID.lowercasedIfNeeded, default: StoredEntries()].modify(in: file) { entries in
                entries.removeAll { $0.environment == metadata.environment }
                entries.append(metadata)
            }
        }
    }

    /// Forgets an account for one client, or for every client when `clientID` is `nil` (see
    /// ``TokenCache/removeAccount(homeAccountID:clientID:familyID:)``).
    mutating func removeAccount(homeAccountID: String, clientID: String?, familyID: String?) {
        let home = homeAccountID.lowercasedIfNeeded
        let left = refreshTokens[home]?.modify(in: file) { list in
            list.removeAll {
                clientID.map($0.clientID.equalsIgnoringCase) ?? true
                    || ($0.familyID != nil && $0.familyID == familyID)
            }
            return list.count
        }
        if left == 0 { refreshTokens[home] = nil }
        realms[home] = nil
        accountEntries[home] = nil
    }

    /// Removes the access token with this secret from the account's tokens (other accounts' stay undecoded).
    mutating func removeAccessToken(homeAccountID: String, secret: String) {
        let (home, file) = (homeAccountID.lowercasedIfNeeded, file)
        guard var slots = realms[home] else { return }
        for index in slots.indices {
            let tokens = slots[index].entries.accessTokens.entries(in: file)
            guard tokens.contains(where: { $0.secret == secret }) else { continue }
            slots[index].entries.accessTokens.modify(in: file) { $0.removeAll { $0.secret == secret } }
        }
        realms[home] = slots
    }

    mutating func setUnknownSection(_ name: String, _ value: CacheValue) {
        unknownSections[name] = value
    }

    // MARK: Whole cache

    /// Indexes `contents` in place of the current entries. The tenant-scoped tokens and the per-account
    /// maps are separate tables, so for a large file they are built at the same time.
    mutating func install(_ contents: UnifiedCacheFormat.Contents) {
        file = contents.file
        let stored = contents.stored
        let large =
            stored.accessTokens.count + stored.idTokens.count + stored.refreshTokens.count + stored.accounts.count
            >= 4096
        (realms, (refreshTokens, accountEntries, appMetadata)) = concurrently(
            parallel: large, { Self.realms(contents) }, { Self.accountSlots(contents) })
        unknownSections = contents.unknownSections
        opaqueEntries = contents.opaqueEntries
    }

    /// The access and ID tokens by account, client and tenant. A file lists an account's access and ID
    /// tokens in the same order, so they are taken in pairs: a pair for the same account, client and tenant
    /// (as read, so no key is built to tell) is filed with one key and one lookup. The entries are read in
    /// place: copying them would retain and release their strings 60,000 times for 10,000 accounts.
    private static func realms(_ contents: UnifiedCacheFormat.Contents) -> [String: [RealmSlot]] {
        let (stored, file) = (contents.stored, contents.file)
        var realms: [String: [RealmSlot]] = [:]
        realms.reserveCapacity(
            max(
                contents.accessTokens.count + stored.accessTokens.count, contents.idTokens.count + stored.idTokens.count
            ))
        stored.accessTokens.withUnsafeBufferPointer { accessTokens in
            stored.idTokens.withUnsafeBufferPointer { idTokens in
                func key(_ found: UnsafePointer<StoredEntryScanner.Found>) -> RealmKey {
                    RealmKey(found.pointee.homeAccountID, found.pointee.clientID, found.pointee.realm)
                }
                for index in 0..<max(accessTokens.count, idTokens.count) {
                    let accessToken = index < accessTokens.count ? accessTokens.baseAddress! + index : nil
                    let idToken = index < idTokens.count ? idTokens.baseAddress! + index : nil
                    if let accessToken, let idToken, accessToken.pointee.homeAccountID == idToken.pointee.homeAccountID,
                        accessToken.pointee.clientID == idToken.pointee.clientID,
                        accessToken.pointee.realm == idToken.pointee.realm
                    {
                        modify(key(accessToken), in: &realms) {
                            $0.appendStored(accessToken.pointee.span, idToken.pointee.span, in: file)
                        }
                        continue
                    }
                    if let accessToken {
                        modify(key(accessToken), in: &realms) {
                            $0.accessTokens.appendStored(accessToken.pointee.span, in: file)
                        }
                    }
                    if let idToken {
                        modify(key(idToken), in: &realms) { $0.idTokens.appendStored(idToken.pointee.span, in: file) }
                    }
                }
            }
        }
        for entry in contents.accessTokens {
            modify(RealmKey(entry.homeAccountID, entry.clientID, entry.realm), in: &realms) {
                $0.accessTokens.modify(in: file) { $0.append(entry) }
            }
        }
        for entry in contents.idTokens {
            modify(RealmKey(entry.homeAccountID, entry.clientID, entry.realm), in: &realms) {
                $0.idTokens.modify(in: file) { $0.append(entry) }
            }
        }
        return realms
    }

    /// Refresh tokens and account entries by home account, app metadata by client.
    private static func accountSlots(_ contents: UnifiedCacheFormat.Contents)
        -> (
            [String: StoredEntries<RefreshTokenEntry>], [String: StoredEntries<AccountEntry>],
            [String: StoredEntries<AppMetadataEntry>]
        )
    {
        let (stored, file) = (contents.stored, contents.file)
        var refreshTokens: [String: StoredEntries<RefreshTokenEntry>] = [:]
        var accounts: [String: StoredEntries<AccountEntry>] = [:]
        var appMetadata: [String: StoredEntries<AppMetadataEntry>] = [:]
        refreshTokens.reserveCapacity(contents.refreshTokens.count + stored.refreshTokens.count)
        accounts.reserveCapacity(contents.accounts.count + stored.accounts.count)
        for found in stored.refreshTokens {
            refreshTokens[found.homeAccountID.lowercasedIfNeeded, default: StoredEntries()].appendStored(
                found.span, in: file)
        }
        for found in stored.accounts {
            accounts[found.homeAccountID.lowercasedIfNeeded, default: StoredEntries()].appendStored(
                found.span, in: file)
        }
        for found in stored.appMetadata {
            appMetadata[found.clientID.lowercasedIfNeeded, default: StoredEntries()].appendStored(found.span, in: file)
        }
        for entry in contents.refreshTokens {
            refreshTokens[entry.homeAccountID.lowercasedIfNeeded, default: StoredEntries()].modify(in: file) {
                $0.append(entry)
            }
        }
        for entry in contents.accounts {
            accounts[entry.homeAccountID.lowercasedIfNeeded, default: StoredEntries()].modify(in: file) {
                $0.append(entry)
            }
        }
        for entry in contents.appMetadata {
            appMetadata[entry.clientID.lowercasedIfNeeded, default: StoredEntries()].modify(in: file) {
                $0.append(entry)
            }
        }
        return (refreshTokens, accounts, appMetadata)
    }

    /// Everything in the cache, for encoding, in the groups the index keeps (the entries are not copied).
    var entryGroups: UnifiedCacheFormat.EntryGroups {
        UnifiedCacheFormat.EntryGroups(
            file: file, accessTokens: realms.values.flatMap { $0.map(\.entries.accessTokens) },
            refreshTokens: Array(refreshTokens.values), idTokens: realms.values.flatMap { $0.map(\.entries.idTokens) },
            accounts: Array(accountEntries.values),
            appMetadata: Array(appMetadata.values), unknownSections: unknownSections, opaqueEntries: opaqueEntries)
    }
}
