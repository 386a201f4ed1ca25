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
        var root: [String: Any] = contents.unknownSections.mapValues(\.foundation)
        func section(_ name: String, _ entries: [(String, [String: Any])]) {
            var merged: [String: Any] = (contents.opaqueEntries[name] ?? [:]).mapValues(\.foundation)
            for (key, fields) in entries { merged[key] = fields }
            root[name] = merged
        }
        section("AccessToken", contents.accessTokens.map { (key($0), fields($0)) })
        section("RefreshToken", contents.refreshTokens.map { (key($0), fields($0)) })
        section("IdToken", contents.idTokens.map { (key($0), fields($0)) })
        section("Account", contents.accounts.map { (key($0), fields($0)) })
        section("AppMetadata", contents.appMetadata.map { (key($0), fields($0)) })
        return try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    static func key(_ e: AccessTokenEntry) -> String {
        "\(e.homeAccountID)-\(e.environment)-accesstoken-\(e.clientID)-\(e.realm)-\(e.target)".lowercased()
    }

    static func key(_ e: RefreshTokenEntry) -> String {
        "\(e.homeAccountID)-\(e.environment)-refreshtoken-\(e.clientID)--\(e.target ?? "")".lowercased()
    }

    static func key(_ e: IDTokenEntry) -> String {
        "\(e.homeAccountID)-\(e.environment)-idtoken-\(e.clientID)-\(e.realm)-".lowercased()
    }

    static func key(_ e: AccountEntry) -> String { "\(e.homeAccountID)-\(e.environment)-\(e.realm)".lowercased() }

    static func key(_ e: AppMetadataEntry) -> String { "appmetadata-\(e.environment)-\(e.clientID)" }

    private static func stamp(_ date: Date) -> String { String(Int(date.timeIntervalSince1970)) }

    private static func fields(_ e: AccessTokenEntry) -> [String: Any] {
        var out: [String: Any] = e.extra.mapValues(\.foundation)
        out["credential_type"] = "AccessToken"
        out["secret"] = e.secret
        out["home_account_id"] = e.homeAccountID
        out["environment"] = e.environment
        out["client_id"] = e.clientID
        out["target"] = e.target
        out["realm"] = e.realm
        out["token_type"] = e.tokenType
        out["cached_at"] = stamp(e.cachedAt)
        out["expires_on"] = stamp(e.expiresOn)
        out["extended_expires_on"] = stamp(e.extendedExpiresOn)
        if let refreshOn = e.refreshOn { out["refresh_on"] = stamp(refreshOn) }
        return out
    }

    private static func fields(_ e: RefreshTokenEntry) -> [String: Any] {
        var out: [String: Any] = e.extra.mapValues(\.foundation)
        out["credential_type"] = "RefreshToken"
        out["secret"] = e.secret
        out["home_account_id"] = e.homeAccountID
        out["environment"] = e.environment
        out["client_id"] = e.clientID
        if let target = e.target { out["target"] = target }
        if let modified = e.lastModification { out["last_modification_time"] = stamp(modified) }
        if let family = e.familyID { out["family_id"] = family }
        return out
    }

    private static func fields(_ e: IDTokenEntry) -> [String: Any] {
        var out: [String: Any] = e.extra.mapValues(\.foundation)
        out["credential_type"] = "IdToken"
        out["secret"] = e.secret
        out["home_account_id"] = e.homeAccountID
        out["environment"] = e.environment
        out["realm"] = e.realm
        out["client_id"] = e.clientID
        return out
    }

    private static func fields(_ e: AccountEntry) -> [String: Any] {
        var out: [String: Any] = e.extra.mapValues(\.foundation)
        out["home_account_id"] = e.homeAccountID
        out["environment"] = e.environment
        out["realm"] = e.realm
        out["local_account_id"] = e.localAccountID
        out["username"] = e.username
        out["authority_type"] = e.authorityType
        if let source = e.accountSource { out["account_source"] = source }
        return out
    }

    private static func fields(_ e: AppMetadataEntry) -> [String: Any] {
        var out: [String: Any] = e.extra.mapValues(\.foundation)
        out["client_id"] = e.clientID
        out["environment"] = e.environment
        if let family = e.familyID { out["family_id"] = family }
        return out
    }

    // MARK: Decoding

    /// Reads a cache file; entries missing required fields are kept aside as opaque, unknown data is kept.
    ///
    /// - Throws: ``MSALError`` `cacheCorrupted` when the bytes are not a JSON object of sections.
    static func decode(_ data: Data) throws -> Contents {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw MSALError.internal(.cacheCorrupted, "The token cache is not a JSON object.")
        }
        var contents = Contents()
        for (name, value) in root {
            guard let canonical = sections.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }),
                  let entries = value as? [String: Any]
            else {
                contents.unknownSections[name] = CacheValue(value)
                continue
            }
            for (key, value) in entries {
                guard let object = value as? [String: Any] else {
                    contents.opaqueEntries[canonical, default: [:]][key] = CacheValue(value)
                    continue
                }
                var reader = FieldReader(object)
                let used: Bool
                switch canonical {
                case "AccessToken": used = reader.accessToken().map { contents.accessTokens.append($0) } != nil
                case "RefreshToken": used = reader.refreshToken().map { contents.refreshTokens.append($0) } != nil
                case "IdToken": used = reader.idToken().map { contents.idTokens.append($0) } != nil
                case "Account": used = reader.account().map { contents.accounts.append($0) } != nil
                default: used = reader.appMetadata().map { contents.appMetadata.append($0) } != nil
                }
                if !used { contents.opaqueEntries[canonical, default: [:]][key] = CacheValue(value) }
            }
        }
        return contents
    }
}

/// Reads one entry's fields, tolerating other SDKs' variants (numeric timestamps, capitalised keys),
/// and leaves the fields it did not consume as `extra`.
private struct FieldReader {
    private var fields: [String: Any]

    init(_ object: [String: Any]) {
        fields = Dictionary(object.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    private mutating func take(_ name: String) -> String? {
        guard let value = fields.removeValue(forKey: name) else { return nil }
        if let s = value as? String { return s }
        if let n = value as? NSNumber { return n.stringValue }
        return nil
    }

    private mutating func date(_ name: String) -> Date? {
        take(name).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    private var extra: [String: CacheValue] { fields.mapValues(CacheValue.init) }

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
