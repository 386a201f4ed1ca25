import Foundation

/// Reads cache entries straight from the JSON, one object at a time, into the entry types: known
/// fields matched by name in any case (MSAL Go capitalises them), numeric timestamps accepted, values
/// that repeat from entry to entry (environment, client, realm, scopes) shared instead of copied,
/// and every other field kept as `extra`. One reader serves a whole file, reusing its buffers.
struct CacheEntryReader {
    enum Field: Int, CaseIterable {
        case credentialType, secret, homeAccountID, environment, clientID, realm, target, tokenType, cachedAt, expiresOn
        case extendedExpiresOn, extExpiresOn, refreshOn, lastModificationTime, familyID, localAccountID, username
        case authorityType, accountSource

        var name: String { String(describing: spelling) }

        /// The name as MSAL Python writes it.
        private var spelling: StaticString {
            switch self {
            case .credentialType: "credential_type"
            case .secret: "secret"
            case .homeAccountID: "home_account_id"
            case .environment: "environment"
            case .clientID: "client_id"
            case .realm: "realm"
            case .target: "target"
            case .tokenType: "token_type"
            case .cachedAt: "cached_at"
            case .expiresOn: "expires_on"
            case .extendedExpiresOn: "extended_expires_on"
            case .extExpiresOn: "ext_expires_on"
            case .refreshOn: "refresh_on"
            case .lastModificationTime: "last_modification_time"
            case .familyID: "family_id"
            case .localAccountID: "local_account_id"
            case .username: "username"
            case .authorityType: "authority_type"
            case .accountSource: "account_source"
            }
        }

        /// Values most entries of a file share, worth comparing with the previous entry's.
        var repeats: Bool {
            switch self {
            case .credentialType, .environment, .clientID, .realm, .target, .tokenType, .familyID, .authorityType,
                .accountSource:
                true
            default: false
            }
        }

        /// The field a key names, compared without regard to ASCII case.
        init?(_ key: CacheJSONReader.Key) {
            guard let raw = key.raw else {
                guard let field = Self.allCases.first(where: { $0.name == key.string.lowercased() }) else { return nil }
                self = field
                return
            }
            self.init(raw: raw)
        }

        /// The field the bytes of a key without escapes name.
        init?(raw: UnsafeRawBufferPointer) {
            guard let field = Self.candidate(raw) else { return nil }
            let spelling = field.spelling
            guard
                memcmp(raw.baseAddress!, spelling.utf8Start, raw.count) == 0
                    || Self.equalFolded(
                        raw, UnsafeBufferPointer(start: spelling.utf8Start, count: spelling.utf8CodeUnitCount))
            else { return nil }
            self = field
        }

        /// The only field whose name has this length and these first two letters (together they tell
        /// every name apart), found without building or hashing anything.
        private static func candidate(_ raw: UnsafeRawBufferPointer) -> Field? {
            guard raw.count >= 2 else { return nil }
            switch (raw.count, raw[0] | 0x20, raw[1] | 0x20) {
            case (15, UInt8(ascii: "c"), UInt8(ascii: "r")): return .credentialType
            case (6, UInt8(ascii: "s"), UInt8(ascii: "e")): return .secret
            case (15, UInt8(ascii: "h"), UInt8(ascii: "o")): return .homeAccountID
            case (11, UInt8(ascii: "e"), UInt8(ascii: "n")): return .environment
            case (9, UInt8(ascii: "c"), UInt8(ascii: "l")): return .clientID
            case (5, UInt8(ascii: "r"), UInt8(ascii: "e")): return .realm
            case (6, UInt8(ascii: "t"), UInt8(ascii: "a")): return .target
            case (10, UInt8(ascii: "t"), UInt8(ascii: "o")): return .tokenType
            case (9, UInt8(ascii: "c"), UInt8(ascii: "a")): return .cachedAt
            case (10, UInt8(ascii: "e"), UInt8(ascii: "x")): return .expiresOn
            case (19, UInt8(ascii: "e"), UInt8(ascii: "x")): return .extendedExpiresOn
            case (14, UInt8(ascii: "e"), UInt8(ascii: "x")): return .extExpiresOn
            case (10, UInt8(ascii: "r"), UInt8(ascii: "e")): return .refreshOn
            case (22, UInt8(ascii: "l"), UInt8(ascii: "a")): return .lastModificationTime
            case (9, UInt8(ascii: "f"), UInt8(ascii: "a")): return .familyID
            case (16, UInt8(ascii: "l"), UInt8(ascii: "o")): return .localAccountID
            case (8, UInt8(ascii: "u"), UInt8(ascii: "s")): return .username
            case (14, UInt8(ascii: "a"), UInt8(ascii: "u")): return .authorityType
            case (14, UInt8(ascii: "a"), UInt8(ascii: "c")): return .accountSource
            default: return nil
            }
        }

        private static func equalFolded(_ raw: UnsafeRawBufferPointer, _ lowercase: UnsafeBufferPointer<UInt8>) -> Bool
        {
            for index in 0..<raw.count {
                let byte = raw[index]
                if byte.asciiLowercased != lowercase[index] { return false }
            }
            return true
        }
    }

    private var values = [String?](repeating: nil, count: Field.allCases.count)
    /// Which values were JSON numbers (MSAL Go's timestamps), so unused ones are written back as numbers.
    private var numeric = [Bool](repeating: false, count: Field.allCases.count)
    private var extra: [(String, CacheValue)] = []
    /// The previous entry's value of each repeating field, reused when its bytes repeat.
    private var previous = [FileStrings](repeating: FileStrings(), count: Field.allCases.count)

    /// Reads the entry object at the reader's position.
    ///
    /// - Throws: ``CacheJSONReader/Malformed`` when the JSON is broken.
    mutating func read(_ reader: inout CacheJSONReader) throws {
        for index in values.indices {
            values[index] = nil
            numeric[index] = false
        }
        extra.removeAll(keepingCapacity: true)
        try reader.objectWithKeys { reader, key in
            guard let field = Field(key), values[field.rawValue] == nil else {
                extra.append((key.string.lowercasedIfNeeded, try reader.value()))
                return
            }
            if reader.nextIsString() {
                values[field.rawValue] = string(try reader.stringToken(), field)
                return
            }
            switch try reader.value() {
            case .number(let number):
                values[field.rawValue] = CacheValue.text(of: number)
                numeric[field.rawValue] = true
            case let other:
                extra.append((field.name, other))  // written back as it was unless the entry has the field
            }
        }
    }

    /// Takes the fields of an entry ``StoredEntryScanner`` kept (``StoredEntryScanner/fields(ofKept:)``):
    /// strings without escapes, each field once, nothing else.
    mutating func read(plain fields: [UnsafeRawBufferPointer?]) {
        extra.removeAll(keepingCapacity: true)
        for field in Field.allCases {
            numeric[field.rawValue] = false
            values[field.rawValue] = fields[field.rawValue].map { raw in
                field.repeats ? previous[field.rawValue].string(raw) : String(decoding: raw, as: UTF8.self)
            }
        }
    }

    private mutating func string(_ token: CacheJSONReader.Key, _ field: Field) -> String {
        guard field.repeats, let raw = token.raw else { return token.string }
        return previous[field.rawValue].string(raw)
    }

    private func text(_ field: Field) -> String? { values[field.rawValue] }

    private func date(_ field: Field) -> Date? { text(field).flatMap(Self.date(from:)) }

    /// A timestamp field's text as a date: Unix seconds, usually all digits (read without `strtod`),
    /// otherwise any number.
    static func date(from text: String) -> Date? {
        var seconds = 0
        var digits = 0
        for byte in text.utf8 {
            guard byte &- UInt8(ascii: "0") < 10, digits < 15 else {
                return Double(text).map(Date.init(timeIntervalSince1970:))
            }
            seconds = seconds * 10 + Int(byte &- UInt8(ascii: "0"))
            digits += 1
        }
        return digits == 0 ? nil : Date(timeIntervalSince1970: Double(seconds))
    }

    private var extraFields: [String: CacheValue] {
        extra.isEmpty ? [:] : Dictionary(extra, uniquingKeysWith: { first, _ in first })
    }

    /// The required fields of an entry that has all of them; a builder reads them only through this.
    struct Required {
        private let rules: RequiredFields
        private let values: [String?]

        fileprivate init?(_ rules: RequiredFields, _ values: [String?]) {
            guard rules.areMet(has: { values[$0.rawValue] != nil }, text: { values[$0.rawValue] ?? "" }) else {
                return nil
            }
            (self.rules, self.values) = (rules, values)
        }

        subscript(field: Field) -> String {
            precondition(rules.fields.contains(field), "\(field.name) is not declared required")
            return values[field.rawValue]!
        }

        /// A required timestamp.
        func date(_ field: Field) -> Date {
            precondition(rules.timestamps.contains(field), "\(field.name) is not declared a required timestamp")
            return CacheEntryReader.date(from: self[field])!
        }
    }

    private func required(_ section: StoredEntryScanner.Section) -> Required? {
        Required(RequiredFields.of(section), values)
    }

    func accessToken() -> AccessTokenEntry? {
        guard let required = required(.accessToken) else { return nil }
        let expires = required.date(.expiresOn)
        return AccessTokenEntry(
            homeAccountID: required[.homeAccountID], environment: required[.environment],
            clientID: required[.clientID], realm: text(.realm) ?? "", target: text(.target) ?? "",
            secret: required[.secret], tokenType: text(.tokenType) ?? "Bearer",
            cachedAt: date(.cachedAt) ?? expires.addingTimeInterval(-3600),
            expiresOn: expires, extendedExpiresOn: date(.extendedExpiresOn) ?? date(.extExpiresOn) ?? expires,
            refreshOn: date(.refreshOn),
            extra: extraFields.merging(
                unused(
                    [.localAccountID, .username, .authorityType, .accountSource, .familyID, .lastModificationTime]
                        + (date(.extendedExpiresOn) == nil ? [] : [.extExpiresOn]))
            ) { a, _ in a })
    }

    func refreshToken() -> RefreshTokenEntry? {
        guard let required = required(.refreshToken) else { return nil }
        return RefreshTokenEntry(
            homeAccountID: required[.homeAccountID], environment: required[.environment],
            clientID: required[.clientID], secret: required[.secret], target: text(.target),
            familyID: text(.familyID).flatMap { $0.isEmpty ? nil : $0 }, lastModification: date(.lastModificationTime),
            extra: extraFields.merging(
                unused([
                    .realm, .tokenType, .cachedAt, .expiresOn, .extendedExpiresOn, .extExpiresOn, .refreshOn,
                    .localAccountID, .username, .authorityType, .accountSource,
                ])
            ) { a, _ in a })
    }

    func idToken() -> IDTokenEntry? {
        guard let required = required(.idToken) else { return nil }
        return IDTokenEntry(
            homeAccountID: required[.homeAccountID], environment: required[.environment], realm: text(.realm) ?? "",
            clientID: required[.clientID], secret: required[.secret],
            extra: extraFields.merging(
                unused([
                    .target, .tokenType, .cachedAt, .expiresOn, .extendedExpiresOn, .extExpiresOn, .refreshOn,
                    .lastModificationTime, .familyID, .localAccountID, .username, .authorityType, .accountSource,
                ])
            ) { a, _ in a })
    }

    func account() -> AccountEntry? {
        guard let required = required(.account) else { return nil }
        return AccountEntry(
            homeAccountID: required[.homeAccountID], environment: required[.environment], realm: text(.realm) ?? "",
            localAccountID: text(.localAccountID) ?? "",
            username: text(.username) ?? "", authorityType: text(.authorityType) ?? "MSSTS",
            accountSource: text(.accountSource),
            extra: extraFields.merging(
                unused([
                    .credentialType, .secret, .clientID, .target, .tokenType, .cachedAt, .expiresOn,
                    .extendedExpiresOn, .extExpiresOn, .refreshOn, .lastModificationTime, .familyID,
                ])
            ) { a, _ in a })
    }

    func appMetadata() -> AppMetadataEntry? {
        guard let required = required(.appMetadata) else { return nil }
        return AppMetadataEntry(
            clientID: required[.clientID], environment: required[.environment],
            familyID: text(.familyID).flatMap { $0.isEmpty ? nil : $0 },
            extra: extraFields.merging(
                unused([
                    .credentialType, .secret, .homeAccountID, .realm, .target, .tokenType, .cachedAt, .expiresOn,
                    .extendedExpiresOn, .extExpiresOn, .refreshOn, .lastModificationTime, .localAccountID,
                    .username, .authorityType, .accountSource,
                ])
            ) { a, _ in a })
    }

    /// Known fields an entry of this kind does not use, which are kept like unknown ones.
    private func unused(_ fields: [Field]) -> [String: CacheValue] {
        var out: [String: CacheValue] = [:]
        for field in fields {
            guard let value = text(field) else { continue }
            out[field.name] = numeric[field.rawValue] ? .number(Double(value) ?? 0) : .string(value)
        }
        return out
    }
}
