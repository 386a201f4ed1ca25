import Foundation

extension UnifiedCacheFormat {
    /// Entries a scan left as spans of ``Contents/file``, by section (see ``StoredEntries``).
    struct StoredContents: Sendable {
        var accessTokens: [StoredEntryScanner.Found] = []
        var refreshTokens: [StoredEntryScanner.Found] = []
        var idTokens: [StoredEntryScanner.Found] = []
        var accounts: [StoredEntryScanner.Found] = []
        var appMetadata: [StoredEntryScanner.Found] = []
    }

    /// Reads a cache file, leaving entries in the canonical shape as spans of `data` (decoded on first
    /// use) and decoding the others; entries missing required fields are kept aside as opaque, unknown
    /// data is kept.
    ///
    /// - Throws: ``MSALError`` `cacheCorrupted` when the bytes are not a JSON object.
    static func read(_ data: Data) throws -> Contents {
        do {
            var contents = Contents()
            try data.withUnsafeBytes { raw in
                var reader = CacheJSONReader(raw)
                guard reader.nextIsObject() else { throw CacheJSONReader.Malformed(offset: 0, reason: "not a JSON object") }
                var entries = CacheEntryReader()
                var scanner = StoredEntryScanner()
                try reader.object { reader, name in
                    guard let canonical = sections.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }), reader.nextIsObject() else {
                        contents.unknownSections[name] = try reader.value()
                        return
                    }
                    let section: StoredEntryScanner.Section = switch canonical {
                    case "AccessToken": .accessToken
                    case "RefreshToken": .refreshToken
                    case "IdToken": .idToken
                    case "Account": .account
                    default: .appMetadata
                    }
                    var stored: [StoredEntryScanner.Found] = []
                    try reader.objectWithKeys { reader, key in
                        guard reader.nextIsObject() else {
                            contents.opaqueEntries[canonical, default: [:]][key.string] = try reader.value()
                            return
                        }
                        let start = reader.position
                        if let found = scanner.scan(&reader, section, key: key) {
                            stored.append(found)
                            return
                        }
                        reader.position = start
                        try entries.read(&reader)
                        if !contents.append(entries, to: section) {
                            reader.position = start
                            contents.opaqueEntries[canonical, default: [:]][key.string] = try reader.value()
                        }
                    }
                    contents.stored.append(stored, to: section)
                }
                try reader.finish()
            }
            contents.file = data
            return contents
        } catch let error as CacheJSONReader.Malformed {
            throw MSALError.internal(.cacheCorrupted, "The token cache is not valid JSON (\(error)).")
        }
    }

    /// Reads a cache file with every entry decoded (``read(_:)`` leaves most as spans of the bytes).
    ///
    /// - Throws: ``MSALError`` `cacheCorrupted` when the bytes are not a JSON object.
    static func decode(_ data: Data) throws -> Contents {
        var contents = try read(data)
        let stored = contents.stored
        contents.accessTokens += StoredEntries<AccessTokenEntry>.decode(stored.accessTokens.map(\.span), in: data)
        contents.refreshTokens += StoredEntries<RefreshTokenEntry>.decode(stored.refreshTokens.map(\.span), in: data)
        contents.idTokens += StoredEntries<IDTokenEntry>.decode(stored.idTokens.map(\.span), in: data)
        contents.accounts += StoredEntries<AccountEntry>.decode(stored.accounts.map(\.span), in: data)
        contents.appMetadata += StoredEntries<AppMetadataEntry>.decode(stored.appMetadata.map(\.span), in: data)
        contents.stored = StoredContents()
        contents.file = nil
        return contents
    }
}

extension UnifiedCacheFormat.StoredContents {
    /// Adds a section's entries (moved when the section has none yet, as in every valid file).
    fileprivate mutating func append(_ found: consuming [StoredEntryScanner.Found], to section: StoredEntryScanner.Section) {
        func add(_ list: inout [StoredEntryScanner.Found]) {
            if list.isEmpty { list = found } else { list += found }
        }
        switch section {
        case .accessToken: add(&accessTokens)
        case .refreshToken: add(&refreshTokens)
        case .idToken: add(&idTokens)
        case .account: add(&accounts)
        case .appMetadata: add(&appMetadata)
        }
    }
}

extension UnifiedCacheFormat.Contents {
    /// Adds the entry `fields` hold to `section`; false when it lacks what the section requires.
    fileprivate mutating func append(_ fields: borrowing CacheEntryReader, to section: StoredEntryScanner.Section) -> Bool {
        switch section {
        case .accessToken: fields.accessToken().map { accessTokens.append($0) } != nil
        case .refreshToken: fields.refreshToken().map { refreshTokens.append($0) } != nil
        case .idToken: fields.idToken().map { idTokens.append($0) } != nil
        case .account: fields.account().map { accounts.append($0) } != nil
        case .appMetadata: fields.appMetadata().map { appMetadata.append($0) } != nil
        }
    }
}
