import Foundation
import OutsideJSON

/// A JSON reader fast on the token cache's shape (tens of thousands of small objects whose values
/// are long strings without escapes): strings are found with `memchr`, objects are read as ordered
/// pairs, not dictionaries. Lenient where that is harmless: raw control characters in strings pass.
/// Values nest at most ``JSONLimits/maximumDepth`` levels deep: ``value()`` reads them by recursion.
struct CacheJSONReader {
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        /// Whether the value nests deeper than ``JSONLimits/maximumDepth`` (which may be valid JSON).
        var isTooDeep = false
        var description: String { "\(reason) at byte \(offset)" }
    }

    let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read; set it back to read a value again.
    var position = 0
    /// How many objects and arrays are open at ``position``; set with it when reading from inside a document.
    var depth = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Fails unless only whitespace follows the value.
    mutating func finish() throws {
        skipWhitespace()
        guard position == bytes.count else {
            throw Malformed(offset: position, reason: "unexpected data after the JSON value")
        }
    }

    /// Whether the next value is an object (without consuming it).
    mutating func nextIsObject() -> Bool {
        skipWhitespace()
        return position < bytes.count && bytes[position] == UInt8(ascii: "{")
    }

    /// Whether the next value is a string (without consuming it).
    mutating func nextIsString() -> Bool {
        skipWhitespace()
        return position < bytes.count && bytes[position] == UInt8(ascii: "\"")
    }

    /// Where `raw` (bytes this reader returned) lies in the reader's bytes.
    func range(of raw: UnsafeRawBufferPointer) -> Range<Int> {
        let start = raw.baseAddress.map { bytes.baseAddress!.distance(to: $0) } ?? 0
        return start..<start + raw.count
    }

    /// The next string value, not yet made into a `String`.
    mutating func stringToken() throws -> Key { try rawString() }

    /// A string (a member's key or a value), made into a `String` only when asked (most entry keys
    /// are never needed).
    struct Key {
        /// The bytes between the quotes, when they hold no escapes; valid while the reader's bytes are.
        let raw: UnsafeRawBufferPointer?
        fileprivate let decoded: String?

        var string: String { decoded ?? String(decoding: raw!, as: UTF8.self) }
    }

    /// Reads an object, calling `member` with each key; `member` must read the value.
    mutating func object(_ member: (inout CacheJSONReader, String) throws -> Void) throws {
        try objectWithKeys { reader, key in try member(&reader, key.string) }
    }

    /// ``object(_:)`` with keys not yet made into strings.
    mutating func objectWithKeys(_ member: (inout CacheJSONReader, Key) throws -> Void) throws {
        guard try openObject() else { return }
        repeat {
            try member(&self, try memberKey())
        } while try nextMember()
    }

    /// Reads an object's `{`; false when `}` follows at once (the object is empty and read).
    mutating func openObject() throws -> Bool {
        try expect(UInt8(ascii: "{"))
        try enter()
        skipWhitespace()
        guard peek() == UInt8(ascii: "}") else { return true }
        position += 1
        depth -= 1
        return false
    }

    /// Reads a member's key and the `:` after it; the value is next.
    mutating func memberKey() throws -> Key {
        let key = try rawString()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Reads what follows a member's value: true after a `,` (another member follows), false after the `}`.
    mutating func nextMember() throws -> Bool {
        skipWhitespace()
        switch next() {
        case UInt8(ascii: ","): return true
        case UInt8(ascii: "}"):
            depth -= 1
            return false
        default: throw Malformed(offset: position - 1, reason: "expected ',' or '}'")
        }
    }

    /// The offset of the next byte that is not whitespace.
    mutating func nextValueOffset() -> Int {
        skipWhitespace()
        return position
    }

    mutating func value() throws -> CacheValue {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"):
            var members: [String: CacheValue] = [:]
            try object { reader, key in members[key] = try reader.value() }
            return .object(members)
        case UInt8(ascii: "["):
            position += 1
            try enter()
            var items: [CacheValue] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return .array(items)
            }
            while true {
                items.append(try value())
                skipWhitespace()
                switch next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"):
                    depth -= 1
                    return .array(items)
                default: throw Malformed(offset: position - 1, reason: "expected ',' or ']'")
                }
            }
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: return .number(try number())
        }
    }

    mutating func string() throws -> String { try rawString().string }

    /// Counts the object or array just opened; fails past ``JSONLimits/maximumDepth``.
    private mutating func enter() throws {
        depth += 1
        guard depth <= JSONLimits.maximumDepth else {
            throw Malformed(
                offset: position - 1, reason: "nesting deeper than \(JSONLimits.maximumDepth) levels", isTooDeep: true)
        }
    }

    private mutating func rawString() throws -> Key {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = position
        guard let base = bytes.baseAddress,
            let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start)
        else { throw Malformed(offset: start, reason: "unterminated string") }
        let end = base.distance(to: UnsafeRawPointer(quote))
        if memchr(base + start, Int32(UInt8(ascii: "\\")), end - start) == nil {
            position = end + 1
            return Key(raw: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), decoded: nil)
        }
        return Key(raw: nil, decoded: try escapedString(from: start))
    }

    private mutating func escapedString(from start: Int) throws -> String {
        var out: [UInt8] = []
        position = start
        while true {
            // The run before the next quote or backslash, copied whole.
            let run = ByteWords.firstQuoteOrBackslash(in: UnsafeRawBufferPointer(rebasing: bytes[position...]))
            out.append(contentsOf: bytes[position..<position + run])
            position += run
            guard position < bytes.count else { throw Malformed(offset: start, reason: "unterminated string") }
            position += 1
            if bytes[position - 1] == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            guard position < bytes.count else { throw Malformed(offset: position, reason: "unterminated escape") }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), bytes.count - position >= 6,
                    bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                {
                    position += 2
                    let low = try hex4()
                    scalar =
                        (0xDC00..<0xE000).contains(low)
                        ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                }
                out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
            default: throw Malformed(offset: position - 1, reason: "unknown escape")
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - position >= 4 else { throw Malformed(offset: position, reason: "short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            guard let digit = Self.hexValue(byte) else {
                throw Malformed(offset: position - 1, reason: "bad \\u escape")
            }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() throws -> Double {
        let start = position
        while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
        guard position > start,
            let value = Double(
                String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        else { throw Malformed(offset: start, reason: "expected a value") }
        return value
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count, memcmp(bytes.baseAddress! + position, word.utf8Start, count) == 0 else {
            throw Malformed(offset: position, reason: "expected a value")
        }
        position += count
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard next() == byte else {
            throw Malformed(offset: max(position - 1, 0), reason: "expected '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func next() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }
}
