import Foundation

/// The token cache's entries, indexed by account so a lookup touches only that account's entries,
/// and the version of the stored bytes they reflect. A value: ``TokenCache`` keeps it behind a lock,
/// changes it one change at a time, and lets lookups read it without a hop onto the actor.
struct CacheIndex: Sendable {
    struct RealmKey: Hashable {
        let homeAccountID: String
        let clientID: String
        let realm: String

        init(_ homeAccountID: String, _ clientID: String, _ realm: String) {
            self.homeAccountID = homeAccountID.lowercasedIfNeeded
            self.clientID = clientID.lowercasedIfNeeded
            self.realm = realm.lowercasedIfNeeded
        }

        /// The home account id alone: it nearly always tells keys apart, and hashing the client and
        /// tenant as well would double the hashing of every lookup. Equality still compares all three.
        func hash(into hasher: inout Hasher) { hasher.combine(homeAccountID) }
    }

    /// Whether the stored bytes were read (always true without persistence).
    var loaded: Bool
    /// The stored bytes' version when last loaded or saved.
    var seenVersion: StorageVersion?
    /// An account's access and ID tokens for one client and tenant: one lookup finds both.
    private struct RealmEntries {
        var accessTokens: [AccessTokenEntry] = []
        var idTokens: [IDTokenEntry] = []
    }

    private var realms: [RealmKey: RealmEntries] = [:]
    private var refreshTokens: [String: [RefreshTokenEntry]] = [:]
    private var accountEntries: [String: [AccountEntry]] = [:]
    private var appMetadata: [String: [AppMetadataEntry]] = [:]
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

    mutating func accessToken(_ key: RealmKey, environments: Set<String>, scopes: [String]) -> (token: AccessTokenEntry, scopes: [String])? {
        accessToken(in: realms[key], environment: nil, environments: environments, scopes: scopes)
    }

    /// The access token for `scopes` with the ID token of the same account, client and tenant.
    ///
    /// - Parameter environment: the environment entries are most likely under: comparing with it is
    ///   cheaper than hashing into `environments`.
    mutating func tokens(_ key: RealmKey, environment: String, environments: Set<String>, scopes: [String]) -> (AccessTokenEntry, IDTokenEntry?, [String])? {
        let entries = realms[key]
        guard let (token, grantedScopes) = accessToken(in: entries, environment: environment, environments: environments, scopes: scopes) else { return nil }
        let idToken = entries?.idTokens.first { $0.environment == environment || environments.contains($0.environment.lowercasedIfNeeded) }
        return (token, idToken, grantedScopes)
    }

    private mutating func accessToken(in entries: RealmEntries?, environment: String?, environments: Set<String>,
                                      scopes: [String]) -> (token: AccessTokenEntry, scopes: [String])? {
        for token in entries?.accessTokens ?? [] where token.environment == environment || environments.contains(token.environment.lowercasedIfNeeded) {
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
        let list = target.split(separator: " ").map(String.init)
        let entry = (Scopes.lowercasedSet(list).union(list), list)
        scopeSets[target] = entry
        return entry
    }

    /// Refresh tokens of the account usable by `clientID`: its own, then the family's, newest first.
    func refreshTokens(homeAccountID: String, environments: Set<String>, clientID: String, familyID: String?) -> [RefreshTokenEntry] {
        let candidates = (refreshTokens[homeAccountID.lowercasedIfNeeded] ?? []).filter { environments.contains($0.environment.lowercasedIfNeeded) }
            .sorted { ($0.lastModification ?? .distantPast) > ($1.lastModification ?? .distantPast) }
        let own = candidates.filter { $0.clientID.caseInsensitiveCompare(clientID) == .orderedSame && $0.familyID == nil }
        let family = familyID.map { id in candidates.filter { $0.familyID == id } } ?? []
        let ownFamilyTokens = candidates.filter { $0.clientID.caseInsensitiveCompare(clientID) == .orderedSame && $0.familyID != nil }
        var seen = Set<String>()
        return (own + ownFamilyTokens + family).filter { seen.insert($0.secret).inserted }
    }

    func idToken(_ key: RealmKey, environments: Set<String>) -> IDTokenEntry? {
        realms[key]?.idTokens.first { environments.contains($0.environment.lowercasedIfNeeded) }
    }

    /// ID tokens of an account for this client in these tenants (direct lookups, no scan).
    func idTokens(homeAccountID: String, clientID: String, realms: [String]) -> [IDTokenEntry] {
        Set(realms.map { RealmKey(homeAccountID, clientID, $0) }).flatMap { self.realms[$0]?.idTokens ?? [] }
    }

    var accounts: [AccountEntry] { accountEntries.values.flatMap { $0 } }

    /// The account entries (one per tenant and environment) of one home account.
    func accounts(homeAccountID: String) -> [AccountEntry] {
        accountEntries[homeAccountID.lowercasedIfNeeded] ?? []
    }

    func appMetadata(clientID: String, environments: Set<String>) -> AppMetadataEntry? {
        appMetadata[clientID.lowercasedIfNeeded]?.first { environments.contains($0.environment.lowercasedIfNeeded) }
    }

    // MARK: Changes

    /// Adds the artefacts of one token response (see ``TokenCache/store(_:replacingRefreshToken:)``).
    mutating func apply(_ artefacts: CacheArtefacts, replacingRefreshToken used: String?) {
        if let at = artefacts.accessToken {
            let key = RealmKey(at.homeAccountID, at.clientID, at.realm)
            let scopes = at.scopeSet.subtracting(Scopes.oidc)
            realms[key, default: RealmEntries()].accessTokens.removeAll { $0.environment == at.environment && !$0.scopeSet.isDisjoint(with: scopes) }
            realms[key, default: RealmEntries()].accessTokens.append(at)
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
            realms[key, default: RealmEntries()].idTokens.removeAll { $0.environment == idToken.environment }
            realms[key, default: RealmEntries()].idTokens.append(idToken)
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

    /// Forgets an account for one client (see ``TokenCache/removeAccount(homeAccountID:clientID:familyID:)``).
    mutating func removeAccount(homeAccountID: String, clientID: String, familyID: String?) {
        let home = homeAccountID.lowercasedIfNeeded
        refreshTokens[home]?.removeAll { $0.clientID.caseInsensitiveCompare(clientID) == .orderedSame || ($0.familyID != nil && $0.familyID == familyID) }
        if refreshTokens[home]?.isEmpty == true { refreshTokens[home] = nil }
        realms = realms.filter { $0.key.homeAccountID != home }
        accountEntries[home] = nil
    }

    mutating func removeAccessToken(secret: String) {
        for (key, entries) in realms where entries.accessTokens.contains(where: { $0.secret == secret }) {
            realms[key]?.accessTokens.removeAll { $0.secret == secret }
        }
    }

    mutating func setUnknownSection(_ name: String, _ value: CacheValue) {
        unknownSections[name] = value
    }

    // MARK: Whole cache

    /// Indexes `contents` in place of the current entries.
    mutating func install(_ contents: UnifiedCacheFormat.Contents) {
        realms = [:]
        refreshTokens = [:]
        accountEntries = [:]
        appMetadata = [:]
        realms.reserveCapacity(max(contents.accessTokens.count, contents.idTokens.count))
        refreshTokens.reserveCapacity(contents.refreshTokens.count)
        accountEntries.reserveCapacity(contents.accounts.count)
        for entry in contents.accessTokens {
            realms[RealmKey(entry.homeAccountID, entry.clientID, entry.realm), default: RealmEntries()].accessTokens.append(entry)
        }
        for entry in contents.refreshTokens { refreshTokens[entry.homeAccountID.lowercasedIfNeeded, default: []].append(entry) }
        for entry in contents.idTokens {
            realms[RealmKey(entry.homeAccountID, entry.clientID, entry.realm), default: RealmEntries()].idTokens.append(entry)
        }
        for entry in contents.accounts { accountEntries[entry.homeAccountID.lowercasedIfNeeded, default: []].append(entry) }
        for entry in contents.appMetadata { appMetadata[entry.clientID.lowercasedIfNeeded, default: []].append(entry) }
        unknownSections = contents.unknownSections
        opaqueEntries = contents.opaqueEntries
    }

    /// Everything in the cache, for encoding, in the groups the index keeps (the entries are not copied).
    var entryGroups: UnifiedCacheFormat.EntryGroups {
        UnifiedCacheFormat.EntryGroups(
            accessTokens: realms.values.map(\.accessTokens), refreshTokens: Array(refreshTokens.values),
            idTokens: realms.values.map(\.idTokens), accounts: Array(accountEntries.values),
            appMetadata: Array(appMetadata.values), unknownSections: unknownSections, opaqueEntries: opaqueEntries)
    }
}
