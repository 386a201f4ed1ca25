import Foundation
import OutsideJSON

extension UnifiedCacheFormat {
    /// Entries a scan left as spans of ``Contents/file``, by section (see ``StoredEntries``).
    struct StoredContents: Sendable {
        var accessTokens: [StoredEntryScanner.Found] = []
        var refreshTokens: [StoredEntryScanner.Found] = []
        var idTokens: [StoredEntryScanner.Found] = []
        var accounts: [StoredEntryScanner.Found] = []
        var appMetadata: [StoredEntryScanner.Found] = []
    }

    /// Reads a cache file, leaving entries whose fields the scan can take as spans of `data` (decoded on
    /// first use) and decoding the others; entries missing required fields are kept aside as opaque,
    /// unknown data is kept. A large indented file is read in two halves at once (see ``CacheFileReading``).
    ///
    /// - Throws: ``MSALError`` `cacheCorrupted` when the bytes are not a JSON object, are larger than
    ///   ``JSONLimits/file`` allows or nest deeper than ``JSONLimits/maximumDepth``.
    static func read(_ data: Data) throws -> Contents {
        do {
            try JSONLimits.file.checkSize(data.count)
        } catch {
            throw MSALError.internal(.cacheCorrupted, "The token cache \(error).", underlyingError: error)
        }
        do {
            var contents = try data.withUnsafeBytes { bytes in
                if let split = CacheFileReading.Split(bytes) {
                    let (head, tail) = concurrently(
                        { try? CacheFileReading.head(bytes, stoppingAt: split) },
                        { try? CacheFileReading.tail(bytes, from: split) })
                    if var head, let tail {
                        head.append(tail)
                        return head
                    }
                }
                return try CacheFileReading.whole(bytes)
            }
            contents.file = data
            return contents
        } catch let error as CacheJSONReader.Malformed {
            throw MSALError.internal(
                .cacheCorrupted, "The token cache is not valid JSON (\(error)).", underlyingError: error)
        }
    }

    /// Reads a cache file with every entry decoded (``read(_:)`` leaves most as spans of the bytes).
    ///
    /// - Throws: ``MSALError`` `cacheCorrupted` when ``read(_:)`` refuses the bytes.
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
    mutating func append(_ found: consuming [StoredEntryScanner.Found], to section: StoredEntryScanner.Section) {
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
    /// Adds what a later part of the same file held (later members win, as in one read).
    mutating func append(_ later: Self) {
        accessTokens += later.accessTokens
        refreshTokens += later.refreshTokens
        idTokens += later.idTokens
        accounts += later.accounts
        appMetadata += later.appMetadata
        unknownSections.merge(later.unknownSections) { _, new in new }
        opaqueEntries.merge(later.opaqueEntries) { old, new in old.merging(new) { _, newer in newer } }
        stored.append(later.stored.accessTokens, to: .accessToken)
        stored.append(later.stored.refreshTokens, to: .refreshToken)
        stored.append(later.stored.idTokens, to: .idToken)
        stored.append(later.stored.accounts, to: .account)
        stored.append(later.stored.appMetadata, to: .appMetadata)
    }

    /// Adds the entry `fields` hold to `section`; false when it lacks what the section requires.
    mutating func append(_ fields: borrowing CacheEntryReader, to section: StoredEntryScanner.Section) -> Bool {
        switch section {
        case .accessToken: fields.accessToken().map { accessTokens.append($0) } != nil
        case .refreshToken: fields.refreshToken().map { refreshTokens.append($0) } != nil
        case .idToken: fields.idToken().map { idTokens.append($0) } != nil
        case .account: fields.account().map { accounts.append($0) } != nil
        case .appMetadata: fields.appMetadata().map { appMetadata.append($0) } != nil
        }
    }
}
