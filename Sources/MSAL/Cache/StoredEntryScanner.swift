import Foundation

/// Finds, without decoding it, what the index needs of a cache entry: the account, client and tenant it
/// is filed under. It accepts only entries the decoder is sure to read: known fields, each once, plain
/// strings, the section's ``RequiredFields``. Anything else (`nil`) is decoded at once instead. An entry it
/// kept is decoded later from the same reading of its bytes (``fields(ofKept:)``).
///
/// An accepted entry is written back under its key as read until its slot changes, as MSAL Python keeps
/// other SDKs' keys; a changed slot's entries are written under the keys MSAL Python makes.
struct StoredEntryScanner {
    typealias Field = CacheEntryReader.Field

    /// An entry left as a span of the file, with the fields the index files it under (empty when the
    /// section does not use them), made while the scan has the bytes at hand.
    struct Found: Sendable {
        let span: StoredSpan
        let homeAccountID: String
        let clientID: String
        let realm: String
    }

    enum Section { case accessToken, refreshToken, idToken, account, appMetadata }

    private var values = [UnsafeRawBufferPointer?](repeating: nil, count: Field.allCases.count)
    /// The client and tenant of earlier entries, shared by most entries of a file.
    private var clients = FileStrings()
    private var tenants = FileStrings()

    /// Reads the entry object at the reader's position, moving past it unless this returns `nil`.
    ///
    /// - Parameter key: the entry's key in the file.
    mutating func scan(_ reader: inout CacheJSONReader, _ section: Section, key: CacheJSONReader.Key) -> Found? {
        let start = reader.position
        guard let rawKey = key.raw, let end = readPlainObject(reader.bytes, from: start), hasRequiredFields(section)
        else { return nil }
        reader.position = end
        let span = StoredSpan(key: reader.range(of: rawKey), value: start..<end)
        switch section {
        case .accessToken, .idToken:
            return Found(
                span: span, homeAccountID: text(.homeAccountID),
                clientID: clients.string(values[Field.clientID.rawValue]),
                realm: tenants.string(values[Field.realm.rawValue]))
        case .refreshToken, .account:
            return Found(span: span, homeAccountID: text(.homeAccountID), clientID: "", realm: "")
        case .appMetadata:
            return Found(
                span: span, homeAccountID: "", clientID: clients.string(values[Field.clientID.rawValue]), realm: "")
        }
    }

    private func text(_ field: Field) -> String {
        values[field.rawValue].map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Reads an object of plain members (`{"name": "value", …}`, known names, each once, no escapes)
    /// starting at `start`, noting each field's value; the offset past it, or `nil` for anything else.
    /// Whatever it accepts is valid JSON, so the entry needs no other check before it is stored.
    private mutating func readPlainObject(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        for index in values.indices { values[index] = nil }
        var cursor = PlainCursor(bytes, at: start)
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        if cursor.take(UInt8(ascii: "}")) { return cursor.offset }
        while true {
            guard let name = cursor.string(), cursor.take(UInt8(ascii: ":")), let value = cursor.string(),
                let field = Field(raw: name), values[field.rawValue] == nil
            else { return nil }
            values[field.rawValue] = value
            if cursor.take(UInt8(ascii: ",")) { continue }
            return cursor.take(UInt8(ascii: "}")) ? cursor.offset : nil
        }
    }

    /// Whether the fields just read meet the section's ``RequiredFields``.
    private func hasRequiredFields(_ section: Section) -> Bool {
        RequiredFields.of(section).areMet(has: { values[$0.rawValue] != nil }, text: text)
    }

    /// The fields of an entry a scan kept (its span's value), by ``Field/rawValue``: the reading the scan
    /// checked, made again of the same bytes.
    mutating func fields(ofKept entry: UnsafeRawBufferPointer) -> [UnsafeRawBufferPointer?] {
        guard readPlainObject(entry, from: 0) != nil else { preconditionFailure("not an entry a scan kept") }
        return values
    }
}

/// Moves through JSON made only of strings without escapes and punctuation.
private struct PlainCursor {
    private let base: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>
    private var next: UnsafePointer<UInt8>

    init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        base = bytes.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? UnsafePointer(bitPattern: 1)!
        end = base + bytes.count
        next = base + min(offset, bytes.count)
    }

    var offset: Int { next - base }

    /// Skips whitespace, then takes `byte` if it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard next < end, next.pointee == byte else { return false }
        next += 1
        return true
    }

    /// Skips whitespace, then takes a string without escapes; its bytes between the quotes.
    mutating func string() -> UnsafeRawBufferPointer? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let rest = UnsafeRawBufferPointer(start: next, count: end - next)
        let length = ByteWords.firstQuoteOrBackslash(in: rest)
        guard length < rest.count, rest[length] == UInt8(ascii: "\"") else { return nil }
        defer { next += length + 1 }
        return UnsafeRawBufferPointer(start: next, count: length)
    }

    /// Indentation eight spaces at a time.
    private mutating func skipWhitespace() {
        while next < end {
            switch next.pointee {
            case 0x20
            where end - next >= 8 && UnsafeRawPointer(next).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020:
                next += 8
            case 0x20, 0x0A, 0x0D, 0x09: next += 1
            default: return
            }
        }
    }
}
