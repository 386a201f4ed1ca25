// The token cache file: `UnifiedCacheFormat.decode` (CacheJSONReader, StoredEntryScanner, CacheEntryReader)
// and, for every file it accepts, `encode`: what the library writes back must read again and hold every
// usable entry it read, and writing settles: the second write is a fixed point (writing what it reads
// back changes nothing). Not the first: a file with a field twice whose first value is unusable (`"x"`)
// keeps the second as an extra field, written after the known ones, and read as the field next time.
// Written as the cache writes after a load, the entries the scan kept are copied from the file byte for
// byte (and the scan keeps them again). Every entry the scan keeps decodes, to the entry the decoder makes
// of it when the scan leaves it alone.
import Foundation
import FuzzSupport

@testable import MSAL

@main
enum FuzzCacheFile {
    static func main() { runFuzzer(fuzzCacheFile) }
}

func fuzzCacheFile(_ file: Data) {
    keptEntriesDecode(file)
    guard let contents = try? UnifiedCacheFormat.decode(file) else { return }
    guard let written = try? UnifiedCacheFormat.encode(contents) else {
        invariant(false, "a cache that was read can be written")
        return
    }
    guard let reread = try? UnifiedCacheFormat.decode(written) else {
        invariant(false, "the cache written reads again; it was:\n\(String(decoding: written, as: UTF8.self))")
        return
    }
    // Every usable entry read is written back and read again (an opaque entry under the same key wins).
    typealias Format = UnifiedCacheFormat
    func kept<Entry>(_ section: String, _ before: [Entry], _ after: [Entry], _ key: (Entry) -> String) {
        let opaque = contents.opaqueEntries[section] ?? [:]
        let afterKeys = Set(after.map(key))
        for entry in before where opaque[key(entry)] == nil {
            invariant(afterKeys.contains(key(entry)), "\(section) entry \(key(entry)) survives writing and reading")
        }
    }
    kept("AccessToken", contents.accessTokens, reread.accessTokens, Format.key)
    kept("RefreshToken", contents.refreshTokens, reread.refreshTokens, Format.key)
    kept("IdToken", contents.idTokens, reread.idTokens, Format.key)
    kept("Account", contents.accounts, reread.accounts, Format.key)
    kept("AppMetadata", contents.appMetadata, reread.appMetadata, Format.key)
    for (name, value) in contents.unknownSections where !Format.sections.contains(name) {
        invariant(reread.unknownSections[name] == value, "unknown section \(name) is kept")
    }
    if contents.opaqueEntries.isEmpty {
        guard let copied = try? UnifiedCacheFormat.encode(UnifiedCacheFormat.read(file)) else {
            invariant(false, "a cache that was read can be written from the file's own bytes")
            return
        }
        // Entries written from their fields may now be plain enough for the scan too, so the file's are a part.
        var written = storedEntries(copied) ?? []
        for entry in storedEntries(file) ?? [] {
            guard let index = written.firstIndex(of: entry) else {
                invariant(
                    false,
                    "an entry the scan kept is written back byte for byte: \(String(decoding: entry, as: UTF8.self))")
                return
            }
            written.remove(at: index)
        }
    }
    guard let second = try? UnifiedCacheFormat.encode(reread),
        let third = try? UnifiedCacheFormat.encode(UnifiedCacheFormat.decode(second))
    else {
        invariant(false, "a cache that was written and read can be written and read again")
        return
    }
    invariant(
        third == second,
        """
        writing does not settle: the third write differs from the second:
        \(String(decoding: second, as: UTF8.self))
        ---
        \(String(decoding: third, as: UTF8.self))
        """)
}

/// Checks that every entry a scan of `file` keeps decodes from its span (``StoredEntries/decode(_:in:)``
/// traps otherwise) to the entry ``CacheEntryReader`` reads from the same bytes.
func keptEntriesDecode(_ file: Data) {
    guard let stored = try? UnifiedCacheFormat.read(file).stored else { return }
    func check<Entry: StoredCacheEntry & Equatable>(_ found: [StoredEntryScanner.Found], _: Entry.Type) {
        let spans = found.map(\.span)
        let decoded = StoredEntries<Entry>.decode(spans, in: file)
        invariant(decoded.count == spans.count, "every \(Entry.self) the scan keeps decodes")
        file.withUnsafeBytes { bytes in
            var fields = CacheEntryReader()
            for (span, entry) in zip(spans, decoded) {
                var reader = CacheJSONReader(UnsafeRawBufferPointer(rebasing: bytes[span.value]))
                let read: Entry? = (try? fields.read(&reader)).flatMap { Entry.read(from: fields) }
                invariant(
                    read == entry,
                    "a kept entry decodes as the decoder reads it: \(String(decoding: bytes[span.value], as: UTF8.self))"
                )
            }
        }
    }
    check(stored.accessTokens, AccessTokenEntry.self)
    check(stored.refreshTokens, RefreshTokenEntry.self)
    check(stored.idTokens, IDTokenEntry.self)
    check(stored.accounts, AccountEntry.self)
    check(stored.appMetadata, AppMetadataEntry.self)
}

/// The key and value bytes of every entry a scan of `data` keeps as a span.
func storedEntries(_ data: Data) -> [[UInt8]]? {
    guard let contents = try? UnifiedCacheFormat.read(data) else { return nil }
    let stored = contents.stored
    let found: [StoredEntryScanner.Found] =
        stored.accessTokens + stored.refreshTokens + stored.idTokens + stored.accounts + stored.appMetadata
    return data.withUnsafeBytes { bytes in
        found.map { (entry: StoredEntryScanner.Found) -> [UInt8] in
            Array(bytes[entry.span.key]) + [0] + Array(bytes[entry.span.value])
        }
    }
}
