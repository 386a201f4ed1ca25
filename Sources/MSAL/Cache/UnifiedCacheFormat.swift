import Foundation

/// MSAL's cross-SDK cache JSON ("unified schema"), written the way MSAL Python writes it: lower-cased
/// `-`-joined keys, string timestamps, unknown sections and fields kept.
enum UnifiedCacheFormat {
    struct Contents: Sendable {
        var accessTokens: [AccessTokenEntry] = []
        var refreshTokens: [RefreshTokenEntry] = []
        var idTokens: [IDTokenEntry] = []
        var accounts: [AccountEntry] = []
        var appMetadata: [AppMetadataEntry] = []
        var unknownSections: [String: CacheValue] = [:]
        /// Entries this library cannot use (other SDKs' app tokens, incomplete entries), by section and
        /// key, written back untouched.
        var opaqueEntries: [String: [String: CacheValue]] = [:]
        /// Entries left as spans of ``file`` (see ``UnifiedCacheFormat/read(_:)``).
        var stored = StoredContents()
        /// The bytes the entries were read from, while ``stored`` points into them.
        var file: Data?
    }

    /// What encoding writes: the entries in the groups the cache's index keeps them in (one per
    /// account, or per account, client and tenant), so a save does not first copy every entry into one
    /// array, and groups still as the file held them are copied from `file`.
    struct EntryGroups: Sendable {
        var file: Data?
        var accessTokens: [StoredEntries<AccessTokenEntry>]
        var refreshTokens: [StoredEntries<RefreshTokenEntry>]
        var idTokens: [StoredEntries<IDTokenEntry>]
        var accounts: [StoredEntries<AccountEntry>]
        var appMetadata: [StoredEntries<AppMetadataEntry>]
        var unknownSections: [String: CacheValue]
        var opaqueEntries: [String: [String: CacheValue]]
    }

    static let sections = ["AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata"]

    // MARK: Encoding

    /// - Parameter buffers: where the output buffer comes from and returns to.
    static func encode(_ contents: Contents, buffers: SerializationBuffers? = nil) throws -> Data {
        func groups<Entry: StoredCacheEntry>(_ entries: [Entry], _ stored: [StoredEntryScanner.Found])
            -> [StoredEntries<Entry>]
        {
            var kept = StoredEntries<Entry>()
            for found in stored { kept.appendStored(found.span, in: contents.file) }
            return [StoredEntries(entries), kept]
        }
        let stored = contents.stored
        return try encode(
            EntryGroups(
                file: contents.file, accessTokens: groups(contents.accessTokens, stored.accessTokens),
                refreshTokens: groups(contents.refreshTokens, stored.refreshTokens),
                idTokens: groups(contents.idTokens, stored.idTokens),
                accounts: groups(contents.accounts, stored.accounts),
                appMetadata: groups(contents.appMetadata, stored.appMetadata),
                unknownSections: contents.unknownSections, opaqueEntries: contents.opaqueEntries), buffers: buffers)
    }

    /// - Parameter buffers: where the output buffer comes from and returns to.
    static func encode(_ contents: EntryGroups, buffers: SerializationBuffers? = nil) throws -> Data {
        (contents.file ?? Data()).withUnsafeBytes { file in
            var size = 4096
            func estimate<Entry>(_ groups: [StoredEntries<Entry>], _ perEntry: Int, secret: (Entry) -> Int) {
                for group in groups {
                    if group.isStored {
                        for span in group.spans { size += span.key.count + span.value.count + 16 }
                    } else {
                        for entry in group.decodedEntries ?? [] { size += secret(entry) + perEntry }
                    }
                }
            }
            estimate(contents.accessTokens, 800) { $0.secret.utf8.count }
            estimate(contents.refreshTokens, 600) { $0.secret.utf8.count }
            estimate(contents.idTokens, 500) { $0.secret.utf8.count }
            estimate(contents.accounts, 600) { _ in 0 }
            estimate(contents.appMetadata, 200) { _ in 0 }
            var writer = CacheJSONWriter(capacity: size, buffers: buffers)
            writer.object { writer in
                for name in Set(sections).union(contents.unknownSections.keys).sorted() {
                    let opaque = contents.opaqueEntries[name] ?? [:]
                    switch name {
                    case "AccessToken":
                        section(
                            &writer, name, contents.accessTokens, file: file, opaque: opaque, key: key, fields: write)
                    case "RefreshToken":
                        section(
                            &writer, name, contents.refreshTokens, file: file, opaque: opaque, key: key, fields: write)
                    case "IdToken":
                        section(&writer, name, contents.idTokens, file: file, opaque: opaque, key: key, fields: write)
                    case "Account":
                        section(&writer, name, contents.accounts, file: file, opaque: opaque, key: key, fields: write)
                    case "AppMetadata":
                        section(
                            &writer, name, contents.appMetadata, file: file, opaque: opaque, key: key, fields: write)
                    default: writer.member(name) { $0.value(contents.unknownSections[name]!) }
                    }
                }
            }
            return writer.data(returningTo: buffers)
        }
    }

    /// Where a key to write lies: in the file (an entry still as read) or among the keys made for this save.
    private struct SortKey {
        enum Source {
            case span(group: Int, index: Int)
            case entry(group: Int, index: Int, name: Int)
            case opaque(name: Int)
        }
        let start: Int
        let count: Int
        let inFile: Bool
        let source: Source
    }

    /// One section, entries sorted by key (bytewise); an opaque entry replaces a known one with the same
    /// key. Entries still as the file held them are copied from it; others are written from their fields,
    /// read in place from their arrays.
    private static func section<Entry>(
        _ writer: inout CacheJSONWriter, _ name: String, _ groups: [StoredEntries<Entry>], file: UnsafeRawBufferPointer,
        opaque: [String: CacheValue], key: (borrowing Entry) -> String,
        fields: (inout CacheJSONWriter, borrowing Entry) -> Void
    ) {
        var keyed: [SortKey] = []
        var names: [String] = []
        var made: [UInt8] = []
        func make(_ name: String) -> (start: Int, count: Int) {
            defer { made.append(contentsOf: name.utf8) }
            names.append(name)
            return (made.count, name.utf8.count)
        }
        keyed.reserveCapacity(groups.reduce(opaque.count) { $0 + max($1.spans.count, $1.decodedEntries?.count ?? 0) })
        for (group, entries) in groups.enumerated() {
            if entries.isStored {
                for (index, span) in entries.spans.enumerated()
                where opaque.isEmpty
                    || opaque[String(decoding: UnsafeRawBufferPointer(rebasing: file[span.key]), as: UTF8.self)] == nil
                {
                    keyed.append(
                        SortKey(
                            start: span.key.lowerBound, count: span.key.count, inFile: true,
                            source: .span(group: group, index: index)))
                }
                continue
            }
            (entries.decodedEntries ?? []).withUnsafeBufferPointer { entries in
                for index in entries.indices {
                    let name = key(entries[index])
                    guard opaque[name] == nil else { continue }
                    let (start, count) = make(name)
                    keyed.append(
                        SortKey(
                            start: start, count: count, inFile: false,
                            source: .entry(group: group, index: index, name: names.count - 1)))
                }
            }
        }
        for name in opaque.keys {
            let (start, count) = make(name)
            keyed.append(SortKey(start: start, count: count, inFile: false, source: .opaque(name: names.count - 1)))
        }
        made.withUnsafeBytes { made in
            func bytes(_ key: SortKey) -> UnsafeRawBufferPointer {
                UnsafeRawBufferPointer(rebasing: (key.inFile ? file : made)[key.start..<key.start + key.count])
            }
            keyed.sort { a, b in
                let (x, y) = (bytes(a), bytes(b))
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
            writer.member(name) { writer in
                writer.object { writer in
                    for key in keyed {
                        switch key.source {
                        case .span(let group, let index):
                            let span = groups[group].spans[index]
                            writer.member(
                                rawKey: bytes(key), rawValue: UnsafeRawBufferPointer(rebasing: file[span.value]))
                        case .entry(let group, let index, let name):
                            writer.member(names[name]) { writer in
                                groups[group].decodedEntries!.withUnsafeBufferPointer { entries in
                                    writer.object { fields(&$0, entries[index]) }
                                }
                            }
                        case .opaque(let name):
                            writer.member(names[name]) { $0.value(opaque[names[name]]!) }
                        }
                    }
                }
            }
        }
    }

    static func key(_ e: borrowing AccessTokenEntry) -> String {
        lowercasedKey(e.homeAccountID, "-", e.environment, "-accesstoken-", e.clientID, "-", e.realm, "-", e.target)
    }

    static func key(_ e: borrowing RefreshTokenEntry) -> String {
        lowercasedKey(e.homeAccountID, "-", e.environment, "-refreshtoken-", e.clientID, "--", e.target ?? "")
    }

    static func key(_ e: borrowing IDTokenEntry) -> String {
        lowercasedKey(e.homeAccountID, "-", e.environment, "-idtoken-", e.clientID, "-", e.realm, "-")
    }

    static func key(_ e: borrowing AccountEntry) -> String {
        lowercasedKey(e.homeAccountID, "-", e.environment, "-", e.realm)
    }

    static func key(_ e: borrowing AppMetadataEntry) -> String { "appmetadata-\(e.environment)-\(e.clientID)" }

    /// `parts` joined and lower-cased in one pass into one new string (`lowercased()` for non-ASCII text).
    private static func lowercasedKey(_ parts: String...) -> String {
        let count = parts.reduce(0) { $0 + $1.utf8.count }
        var ascii = true
        let key = String(unsafeUninitializedCapacity: count) { buffer in
            var index = 0
            for var part in parts {
                part.withUTF8 { bytes in
                    for byte in bytes {
                        ascii = ascii && byte < 0x80
                        buffer[index] = byte.asciiLowercased
                        index += 1
                    }
                }
            }
            return index
        }
        return ascii ? key : parts.joined().lowercased()
    }

    /// Whole seconds; a time past `Int`'s range (a file's `"expires_on": "1e300"`, a server's huge
    /// `expires_in`) is written as the nearest one instead of trapping, and NaN as 0.
    private static func stamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        if seconds.isNaN { return "0" }
        return String(seconds < 0x1p63 ? (seconds >= -0x1p63 ? Int(seconds) : .min) : .max)
    }

    /// Fields in MSAL Python's order, then the ones other SDKs wrote, sorted.
    private static func writeExtra(
        _ writer: inout CacheJSONWriter, _ extra: [String: CacheValue], besides written: @autoclosure () -> [String]
    ) {
        guard !extra.isEmpty else { return }
        let written = written()
        for key in extra.keys.sorted() where !written.contains(key) { writer.member(key) { $0.value(extra[key]!) } }
    }

    private static func write(_ writer: inout CacheJSONWriter, _ e: borrowing AccessTokenEntry) {
        writer.member("credential_type", "AccessToken")
        writer.member("secret", e.secret)
        writer.member("home_account_id", e.homeAccountID)
        writer.member("environment", e.environment)
        writer.member("client_id", e.clientID)
        writer.member("target", e.target)
        writer.member("realm", e.realm)
        writer.member("token_type", e.tokenType)
        writer.member("cached_at", stamp(e.cachedAt))
        writer.member("expires_on", stamp(e.expiresOn))
        writer.member("extended_expires_on", stamp(e.extendedExpiresOn))
        if let refreshOn = e.refreshOn { writer.member("refresh_on", stamp(refreshOn)) }
        writeExtra(
            &writer, e.extra,
            besides: [
                "credential_type", "secret", "home_account_id", "environment", "client_id", "target", "realm",
                "token_type", "cached_at", "expires_on", "extended_expires_on",
            ] + (e.refreshOn == nil ? [] : ["refresh_on"]))
    }

    private static func write(_ writer: inout CacheJSONWriter, _ e: borrowing RefreshTokenEntry) {
        writer.member("credential_type", "RefreshToken")
        writer.member("secret", e.secret)
        writer.member("home_account_id", e.homeAccountID)
        writer.member("environment", e.environment)
        writer.member("client_id", e.clientID)
        if let target = e.target { writer.member("target", target) }
        if let modified = e.lastModification { writer.member("last_modification_time", stamp(modified)) }
        if let family = e.familyID { writer.member("family_id", family) }
        writeExtra(
            &writer, e.extra,
            besides: ["credential_type", "secret", "home_account_id", "environment", "client_id"]
                + (e.target == nil ? [] : ["target"]) + (e.lastModification == nil ? [] : ["last_modification_time"])
                + (e.familyID == nil ? [] : ["family_id"]))
    }

    private static func write(_ writer: inout CacheJSONWriter, _ e: borrowing IDTokenEntry) {
        writer.member("credential_type", "IdToken")
        writer.member("secret", e.secret)
        writer.member("home_account_id", e.homeAccountID)
        writer.member("environment", e.environment)
        writer.member("realm", e.realm)
        writer.member("client_id", e.clientID)
        writeExtra(
            &writer, e.extra,
            besides: ["credential_type", "secret", "home_account_id", "environment", "realm", "client_id"])
    }

    private static func write(_ writer: inout CacheJSONWriter, _ e: borrowing AccountEntry) {
        writer.member("home_account_id", e.homeAccountID)
        writer.member("environment", e.environment)
        writer.member("realm", e.realm)
        writer.member("local_account_id", e.localAccountID)
        writer.member("username", e.username)
        writer.member("authority_type", e.authorityType)
        if let source = e.accountSource { writer.member("account_source", source) }
        writeExtra(
            &writer, e.extra,
            besides: ["home_account_id", "environment", "realm", "local_account_id", "username", "authority_type"]
                + (e.accountSource == nil ? [] : ["account_source"]))
    }

    private static func write(_ writer: inout CacheJSONWriter, _ e: borrowing AppMetadataEntry) {
        writer.member("client_id", e.clientID)
        writer.member("environment", e.environment)
        if let family = e.familyID { writer.member("family_id", family) }
        writeExtra(&writer, e.extra, besides: ["client_id", "environment"] + (e.familyID == nil ? [] : ["family_id"]))
    }
}
