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

    static let sections = ["AccessToken", "RefreshToken", "IdToken", "Account", "AppMetadata"]

    // MARK: Encoding

    static func encode(_ contents: Contents) throws -> Data {
        let known: [String: [(key: String, fields: [(String, CacheValue)])]] = [
            "AccessToken": contents.accessTokens.map { (key($0), fields($0)) },
            "RefreshToken": contents.refreshTokens.map { (key($0), fields($0)) },
            "IdToken": contents.idTokens.map { (key($0), fields($0)) },
            "Account": contents.accounts.map { (key($0), fields($0)) },
            "AppMetadata": contents.appMetadata.map { (key($0), fields($0)) },
        ]
        var size = 64
        for entries in known.values { for entry in entries { for field in entry.fields { if case .string(let s) = field.1 { size += s.utf8.count + 40 } } } }
        var writer = CacheJSONWriter(capacity: size)
        writer.object { writer in
            for name in Set(known.keys).union(contents.unknownSections.keys).sorted() {
                guard var entries = known[name] else {
                    writer.member(name) { $0.value(contents.unknownSections[name]!) }
                    continue
                }
                let opaque = contents.opaqueEntries[name] ?? [:]
                entries.removeAll { opaque[$0.key] != nil }
                entries += opaque.map { ($0.key, [("", $0.value)]) }
                entries.sort { $0.key < $1.key }
                writer.member(name) { writer in
                    writer.object { writer in
                        for entry in entries {
                            writer.member(entry.key) { writer in
                                if entry.fields.count == 1, entry.fields[0].0.isEmpty {
                                    writer.value(entry.fields[0].1)
                                    return
                                }
                                writer.object { writer in
                                    for (field, value) in entry.fields { writer.member(field) { $0.value(value) } }
                                }
                            }
                        }
                    }
                }
            }
        }
        return Data(writer.bytes)
    }

    static func key(_ e: AccessTokenEntry) -> String {
        "\(e.homeAccountID)-\(e.environment)-accesstoken-\(e.clientID)-\(e.realm)-\(e.target)".lowercasedIfNeeded
    }

    static func key(_ e: RefreshTokenEntry) -> String {
        "\(e.homeAccountID)-\(e.environment)-refreshtoken-\(e.clientID)--\(e.target ?? "")".lowercasedIfNeeded
    }

    static func key(_ e: IDTokenEntry) -> String {
        "\(e.homeAccountID)-\(e.environment)-idtoken-\(e.clientID)-\(e.realm)-".lowercasedIfNeeded
    }

    static func key(_ e: AccountEntry) -> String { "\(e.homeAccountID)-\(e.environment)-\(e.realm)".lowercasedIfNeeded }

    static func key(_ e: AppMetadataEntry) -> String { "appmetadata-\(e.environment)-\(e.clientID)" }

    private static func stamp(_ date: Date) -> CacheValue { .string(String(Int(date.timeIntervalSince1970))) }

    /// Fields in MSAL Python's order, then the ones other SDKs wrote, sorted.
    private static func withExtra(_ fields: [(String, CacheValue)], _ extra: [String: CacheValue]) -> [(String, CacheValue)] {
        extra.isEmpty ? fields : fields + extra.filter { key, _ in !fields.contains { $0.0 == key } }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private static func fields(_ e: AccessTokenEntry) -> [(String, CacheValue)] {
        var out: [(String, CacheValue)] = [
            ("credential_type", .string("AccessToken")), ("secret", .string(e.secret)), ("home_account_id", .string(e.homeAccountID)),
            ("environment", .string(e.environment)), ("client_id", .string(e.clientID)), ("target", .string(e.target)),
            ("realm", .string(e.realm)), ("token_type", .string(e.tokenType)), ("cached_at", stamp(e.cachedAt)),
            ("expires_on", stamp(e.expiresOn)), ("extended_expires_on", stamp(e.extendedExpiresOn)),
        ]
        if let refreshOn = e.refreshOn { out.append(("refresh_on", stamp(refreshOn))) }
        return withExtra(out, e.extra)
    }

    private static func fields(_ e: RefreshTokenEntry) -> [(String, CacheValue)] {
        var out: [(String, CacheValue)] = [
            ("credential_type", .string("RefreshToken")), ("secret", .string(e.secret)), ("home_account_id", .string(e.homeAccountID)),
            ("environment", .string(e.environment)), ("client_id", .string(e.clientID)),
        ]
        if let target = e.target { out.append(("target", .string(target))) }
        if let modified = e.lastModification { out.append(("last_modification_time", stamp(modified))) }
        if let family = e.familyID { out.append(("family_id", .string(family))) }
        return withExtra(out, e.extra)
    }

    private static func fields(_ e: IDTokenEntry) -> [(String, CacheValue)] {
        withExtra([
            ("credential_type", .string("IdToken")), ("secret", .string(e.secret)), ("home_account_id", .string(e.homeAccountID)),
            ("environment", .string(e.environment)), ("realm", .string(e.realm)), ("client_id", .string(e.clientID)),
        ], e.extra)
    }

    private static func fields(_ e: AccountEntry) -> [(String, CacheValue)] {
        var out: [(String, CacheValue)] = [
            ("home_account_id", .string(e.homeAccountID)), ("environment", .string(e.environment)), ("realm", .string(e.realm)),
            ("local_account_id", .string(e.localAccountID)), ("username", .string(e.username)), ("authority_type", .string(e.authorityType)),
        ]
        if let source = e.accountSource { out.append(("account_source", .string(source))) }
        return withExtra(out, e.extra)
    }

    private static func fields(_ e: AppMetadataEntry) -> [(String, CacheValue)] {
        var out: [(String, CacheValue)] = [("client_id", .string(e.clientID)), ("environment", .string(e.environment))]
        if let family = e.familyID { out.append(("family_id", .string(family))) }
        return withExtra(out, e.extra)
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
                        let pairs = try reader.pairs()
                        var fields = FieldReader(pairs)
                        let used: Bool
                        switch canonical {
                        case "AccessToken": used = fields.accessToken().map { contents.accessTokens.append($0) } != nil
                        case "RefreshToken": used = fields.refreshToken().map { contents.refreshTokens.append($0) } != nil
                        case "IdToken": used = fields.idToken().map { contents.idTokens.append($0) } != nil
                        case "Account": used = fields.account().map { contents.accounts.append($0) } != nil
                        default: used = fields.appMetadata().map { contents.appMetadata.append($0) } != nil
                        }
                        if !used {
                            contents.opaqueEntries[canonical, default: [:]][key.string] = .object(Dictionary(pairs, uniquingKeysWith: { a, _ in a }))
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

/// Reads one entry's fields, tolerating other SDKs' variants (numeric timestamps, capitalised keys),
/// and leaves the fields it did not consume as `extra`.
private struct FieldReader {
    private var fields: [(String, CacheValue)]

    /// - Parameter fields: the entry's fields, keys lowercased.
    init(_ fields: [(String, CacheValue)]) { self.fields = fields }

    private mutating func take(_ name: String) -> String? {
        guard let index = fields.firstIndex(where: { $0.0 == name }) else { return nil }
        switch fields.remove(at: index).1 {
        case .string(let s): return s
        case .number(let d): return CacheValue.text(of: d)
        default: return nil
        }
    }

    private mutating func date(_ name: String) -> Date? {
        take(name).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    private var extra: [String: CacheValue] { fields.isEmpty ? [:] : Dictionary(fields, uniquingKeysWith: { a, _ in a }) }

    mutating func accessToken() -> AccessTokenEntry? {
        _ = take("credential_type")
        guard let home = take("home_account_id"), let env = take("environment"), let client = take("client_id"),
              let secret = take("secret"), let expires = date("expires_on")
        else { return nil }
        let realm = take("realm") ?? ""
        let target = take("target") ?? ""
        let tokenType = take("token_type") ?? "Bearer"
        let cached = date("cached_at") ?? expires.addingTimeInterval(-3600)
        let extended = date("extended_expires_on") ?? date("ext_expires_on") ?? expires
        let refreshOn = date("refresh_on")
        return AccessTokenEntry(homeAccountID: home, environment: env, clientID: client, realm: realm, target: target,
                                secret: secret, tokenType: tokenType, cachedAt: cached, expiresOn: expires,
                                extendedExpiresOn: extended, refreshOn: refreshOn, extra: extra)
    }

    mutating func refreshToken() -> RefreshTokenEntry? {
        _ = take("credential_type")
        guard let home = take("home_account_id"), let env = take("environment"), let client = take("client_id"),
              let secret = take("secret")
        else { return nil }
        let target = take("target")
        let family = take("family_id").flatMap { $0.isEmpty ? nil : $0 }
        let modified = date("last_modification_time")
        return RefreshTokenEntry(homeAccountID: home, environment: env, clientID: client, secret: secret, target: target,
                                 familyID: family, lastModification: modified, extra: extra)
    }

    mutating func idToken() -> IDTokenEntry? {
        _ = take("credential_type")
        guard let home = take("home_account_id"), let env = take("environment"), let client = take("client_id"),
              let secret = take("secret")
        else { return nil }
        let realm = take("realm") ?? ""
        return IDTokenEntry(homeAccountID: home, environment: env, realm: realm, clientID: client, secret: secret, extra: extra)
    }

    mutating func account() -> AccountEntry? {
        guard let home = take("home_account_id"), let env = take("environment") else { return nil }
        let realm = take("realm") ?? ""
        let local = take("local_account_id") ?? ""
        let username = take("username") ?? ""
        let type = take("authority_type") ?? "MSSTS"
        let source = take("account_source")
        return AccountEntry(homeAccountID: home, environment: env, realm: realm, localAccountID: local, username: username,
                            authorityType: type, accountSource: source, extra: extra)
    }

    mutating func appMetadata() -> AppMetadataEntry? {
        guard let client = take("client_id"), let env = take("environment") else { return nil }
        let family = take("family_id").flatMap { $0.isEmpty ? nil : $0 }
        return AppMetadataEntry(clientID: client, environment: env, familyID: family, extra: extra)
    }
}
