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
    }

    /// What encoding writes: the entries in the groups the cache's index keeps them in (one array per
    /// account, or per account, client and tenant), so a save does not first copy every entry into one array.
    struct EntryGroups: Sendable {
        var accessTokens: [[AccessTokenEntry]]
        var refreshTokens: [[RefreshTokenEntry]]
        var idTokens: [[IDTokenEntry]]
        var accounts: [[AccountEntry]]
        var appMetadata: [[AppMetadataEntry]]
        var unknownSections: [String: CacheValue]
        var opaqueEntries: [String: [String: CacheValue]]
    }

    static let sections = ["AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata"]

    // MARK: Encoding

    /// - Parameter buffers: where the output buffer comes from and returns to.
    static func encode(_ contents: Contents, buffers: SerializationBuffers? = nil) throws -> Data {
        try encode(EntryGroups(accessTokens: [contents.accessTokens], refreshTokens: [contents.refreshTokens], idTokens: [contents.idTokens],
                               accounts: [contents.accounts], appMetadata: [contents.appMetadata],
                               unknownSections: contents.unknownSections, opaqueEntries: contents.opaqueEntries), buffers: buffers)
    }

    /// - Parameter buffers: where the output buffer comes from and returns to.
    static func encode(_ contents: EntryGroups, buffers: SerializationBuffers? = nil) throws -> Data {
        var size = 4096
        for group in contents.accessTokens { for entry in group { size += entry.secret.utf8.count + 800 } }
        for group in contents.refreshTokens { for entry in group { size += entry.secret.utf8.count + 600 } }
        for group in contents.idTokens { for entry in group { size += entry.secret.utf8.count + 500 } }
        size += 600 * contents.accounts.reduce(0) { $0 + $1.count } + 200 * contents.appMetadata.reduce(0) { $0 + $1.count }
        var writer = CacheJSONWriter(capacity: size, buffers: buffers)
        writer.object { writer in
            for name in Set(sections).union(contents.unknownSections.keys).sorted() {
                let opaque = contents.opaqueEntries[name] ?? [:]
                switch name {
                case "AccessToken": section(&writer, name, contents.accessTokens, opaque: opaque, key: key, fields: write)
                case "RefreshToken": section(&writer, name, contents.refreshTokens, opaque: opaque, key: key, fields: write)
                case "IdToken": section(&writer, name, contents.idTokens, opaque: opaque, key: key, fields: write)
                case "Account": section(&writer, name, contents.accounts, opaque: opaque, key: key, fields: write)
                case "AppMetadata": section(&writer, name, contents.appMetadata, opaque: opaque, key: key, fields: write)
                default: writer.member(name) { $0.value(contents.unknownSections[name]!) }
                }
            }
        }
        return writer.data(returningTo: buffers)
    }

    /// One section, entries sorted by key; an opaque entry replaces a known one with the same key.
    /// Entries are read in place from their arrays (no copy of each entry's strings per use).
    private static func section<Entry>(_ writer: inout CacheJSONWriter, _ name: String, _ groups: [[Entry]], opaque: [String: CacheValue],
                                       key: (borrowing Entry) -> String, fields: (inout CacheJSONWriter, borrowing Entry) -> Void) {
        var keyed: [(key: String, group: Int, index: Int)] = []
        keyed.reserveCapacity(groups.reduce(opaque.count) { $0 + $1.count })
        for (group, entries) in groups.enumerated() {
            entries.withUnsafeBufferPointer { entries in
                for index in entries.indices {
                    let key = key(entries[index])
                    if opaque[key] == nil { keyed.append((key, group, index)) }
                }
            }
        }
        for key in opaque.keys { keyed.append((key, -1, -1)) }
        keyed.sort { $0.key < $1.key }
        writer.member(name) { writer in
            writer.object { writer in
                for (key, group, index) in keyed {
                    writer.member(key) { writer in
                        if group < 0 {
                            writer.value(opaque[key]!)
                        } else {
                            groups[group].withUnsafeBufferPointer { entries in writer.object { fields(&$0, entries[index]) } }
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

    static func key(_ e: borrowing AccountEntry) -> String { lowercasedKey(e.homeAccountID, "-", e.environment, "-", e.realm) }

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
    private static func writeExtra(_ writer: inout CacheJSONWriter, _ extra: [String: CacheValue], besides written: @autoclosure () -> [String]) {
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
        writeExtra(&writer, e.extra, besides: ["credential_type", "secret", "home_account_id", "environment", "client_id", "target", "realm",
                                               "token_type", "cached_at", "expires_on", "extended_expires_on"] + (e.refreshOn == nil ? [] : ["refresh_on"]))
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
        writeExtra(&writer, e.extra, besides: ["credential_type", "secret", "home_account_id", "environment", "client_id"]
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
        writeExtra(&writer, e.extra, besides: ["credential_type", "secret", "home_account_id", "environment", "realm", "client_id"])
    }

    private static func write(_ writer: inout CacheJSONWriter, _ e: borrowing AccountEntry) {
        writer.member("home_account_id", e.homeAccountID)
        writer.member("environment", e.environment)
        writer.member("realm", e.realm)
        writer.member("local_account_id", e.localAccountID)
        writer.member("username", e.username)
        writer.member("authority_type", e.authorityType)
        if let source = e.accountSource { writer.member("account_source", source) }
        writeExtra(&writer, e.extra, besides: ["home_account_id", "environment", "realm", "local_account_id", "username", "authority_type"]
                                              + (e.accountSource == nil ? [] : ["account_source"]))
    }

    private static func write(_ writer: inout CacheJSONWriter, _ e: borrowing AppMetadataEntry) {
        writer.member("client_id", e.clientID)
        writer.member("environment", e.environment)
        if let family = e.familyID { writer.member("family_id", family) }
        writeExtra(&writer, e.extra, besides: ["client_id", "environment"] + (e.familyID == nil ? [] : ["family_id"]))
    }

    // MARK: Decoding

    /// Reads a cache file; entries missing required fields are kept aside as opaque, unknown data is kept.
    ///
    /// - Throws: ``MSALError`` `cacheCorrupted` when the bytes are not a JSON object.
    static func decode(_ data: Data) throws -> Contents {
        do {
            return try data.withUnsafeBytes { raw in
                var reader = CacheJSONReader(raw)
                guard reader.nextIsObject() else { throw CacheJSONReader.Malformed(offset: 0, reason: "not a JSON object") }
                var contents = Contents()
                var entries = CacheEntryReader()
                try reader.object { reader, name in
                    guard let canonical = sections.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }), reader.nextIsObject() else {
                        contents.unknownSections[name] = try reader.value()
                        return
                    }
                    try reader.objectWithKeys { reader, key in
                        guard reader.nextIsObject() else {
                            contents.opaqueEntries[canonical, default: [:]][key.string] = try reader.value()
                            return
                        }
                        let start = reader.position
                        try entries.read(&reader)
                        let used: Bool
                        switch canonical {
                        case "AccessToken": used = entries.accessToken().map { contents.accessTokens.append($0) } != nil
                        case "RefreshToken": used = entries.refreshToken().map { contents.refreshTokens.append($0) } != nil
                        case "IdToken": used = entries.idToken().map { contents.idTokens.append($0) } != nil
                        case "Account": used = entries.account().map { contents.accounts.append($0) } != nil
                        default: used = entries.appMetadata().map { contents.appMetadata.append($0) } != nil
                        }
                        if !used {
                            reader.position = start
                            contents.opaqueEntries[canonical, default: [:]][key.string] = try reader.value()
                        }
                    }
                }
                try reader.finish()
                return contents
            }
        } catch let error as CacheJSONReader.Malformed {
            throw MSALError.internal(.cacheCorrupted, "The token cache is not valid JSON (\(error)).")
        }
    }
}
