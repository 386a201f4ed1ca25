import Foundation

/// Where one entry sits in the cache file's bytes: its key (between the quotes) and its value (the object).
struct StoredSpan: Sendable {
    let key: Range<Int>
    let value: Range<Int>
}

/// A slot's spans. Nearly every slot holds one entry (an account's refresh token, say), so the first
/// span is kept inline and only a second one allocates: loading a file of 10,000 accounts files 40,000
/// entries without 40,000 array allocations.
struct StoredSpans: RandomAccessCollection, Sendable {
    private var first: StoredSpan?
    private var others: [StoredSpan] = []

    var startIndex: Int { 0 }
    var endIndex: Int { first == nil ? 0 : 1 + others.count }

    subscript(position: Int) -> StoredSpan { position == 0 ? first! : others[position - 1] }

    mutating func append(_ span: StoredSpan) {
        if first == nil { first = span } else { others.append(span) }
    }
}

/// An entry type the cache file holds, read from the fields ``CacheEntryReader`` found.
protocol StoredCacheEntry: Sendable {
    /// The entry `fields` hold, or `nil` when they lack what this kind of entry requires.
    static func read(from fields: borrowing CacheEntryReader) -> Self?
}

/// One index slot's entries (an account's refresh tokens, say). Entries read from a cache file stay
/// as spans of the file's bytes until a lookup first needs them, and are written back as those bytes
/// until the slot changes: loading a large file costs a scan, not a decode of every token.
///
/// `Entry` is constrained only where entries are decoded (see "Start-up" in the library's README).
struct StoredEntries<Entry: Sendable>: Sendable {
    /// The entries as the file holds them, while the slot is unchanged since it was read.
    private(set) var spans = StoredSpans()
    /// The decoded entries; `nil` until a lookup needs them.
    private var decoded: [Entry]?

    init(_ entries: [Entry] = []) { decoded = entries }

    /// Whether the stored spans still describe the entries (then they are written back as read).
    var isStored: Bool { !spans.isEmpty }

    /// The entries once decoded, or `nil` while they are only spans.
    var decodedEntries: [Entry]? { decoded }
}

extension StoredEntries where Entry: StoredCacheEntry {
    /// Adds an entry the scan of `file` found. A slot that already holds entries written from their
    /// fields takes it decoded.
    mutating func appendStored(_ span: StoredSpan, in file: Data?) {
        if spans.isEmpty, let decoded, !decoded.isEmpty {
            self.decoded = decoded + Self.decode([span], in: file)
        } else {
            spans.append(span)
            decoded = nil
        }
    }

    /// The entries, decoded from `file` (the bytes the spans point into) on first use.
    mutating func entries(in file: Data?) -> [Entry] {
        if let decoded { return decoded }
        let entries = Self.decode(spans, in: file)
        decoded = entries
        return entries
    }

    /// Changes the entries; from then on they are written from their fields, not from the file.
    mutating func modify<T>(in file: Data?, _ change: (inout [Entry]) -> T) -> T {
        var entries = entries(in: file)
        decoded = nil
        spans = StoredSpans()
        defer { decoded = entries }
        return change(&entries)
    }

    /// The entries `spans` of `file` hold, one for each. A span is what a scan kept, so its fields are
    /// read again as the scan read them (``StoredEntryScanner/fields(ofKept:)``) and meet the same
    /// ``RequiredFields`` the scan checked: every span decodes.
    static func decode(_ spans: some Collection<StoredSpan>, in file: Data?) -> [Entry] {
        guard let file, !spans.isEmpty else { return [] }
        return file.withUnsafeBytes { bytes in
            var scanner = StoredEntryScanner()
            var fields = CacheEntryReader()
            return spans.map { span in
                fields.read(plain: scanner.fields(ofKept: UnsafeRawBufferPointer(rebasing: bytes[span.value])))
                guard let entry = Entry.read(from: fields) else {
                    preconditionFailure("a scan kept a \(Entry.self) without the fields its section requires")
                }
                return entry
            }
        }
    }
}

extension AccessTokenEntry: StoredCacheEntry {
    static func read(from fields: borrowing CacheEntryReader) -> Self? { fields.accessToken() }
}

extension RefreshTokenEntry: StoredCacheEntry {
    static func read(from fields: borrowing CacheEntryReader) -> Self? { fields.refreshToken() }
}

extension IDTokenEntry: StoredCacheEntry {
    static func read(from fields: borrowing CacheEntryReader) -> Self? { fields.idToken() }
}

extension AccountEntry: StoredCacheEntry {
    static func read(from fields: borrowing CacheEntryReader) -> Self? { fields.account() }
}

extension AppMetadataEntry: StoredCacheEntry {
    static func read(from fields: borrowing CacheEntryReader) -> Self? { fields.appMetadata() }
}
