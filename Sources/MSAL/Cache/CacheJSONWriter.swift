/// Writes the token cache as JSON into one growing byte buffer, indented like MSAL Python's
/// `json.dumps(indent=4)`, with strings copied whole unless they need escapes.
struct CacheJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// An object whose members `body` writes with ``member(_:_:)``.
    mutating func object(_ body: (inout CacheJSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        let mark = bytes.count
        body(&self)
        depth -= 1
        if bytes.count != mark { newline() }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A member; `value` writes its value.
    mutating func member(_ key: String, _ value: (inout CacheJSONWriter) -> Void) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        newline()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        value(&self)
    }

    mutating func member(_ key: String, _ value: String) { member(key) { $0.string(value) } }

    mutating func value(_ value: CacheValue) {
        switch value {
        case .string(let s): string(s)
        case .number(let d): bytes.append(contentsOf: CacheValue.text(of: d).utf8)
        case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            object { writer in
                for key in members.keys.sorted() { writer.member(key) { $0.value(members[key]!) } }
            }
        }
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            if !Self.needsEscaping(utf8) {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 { escape(byte) }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Whether any byte is a control character, `"` or `\`; eight bytes at a time.
    private static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var offset = 0
        let raw = UnsafeRawBufferPointer(utf8)
        while offset + 8 <= utf8.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // "Has a byte below 0x20" and "has a zero byte" (after XOR with the quote or backslash): exact for detection.
            let control = (word &- ones &* 0x20) & ~word & highs
            if control != 0 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) { return true }
            offset += 8
        }
        while offset < utf8.count {
            let byte = utf8[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            offset += 1
        }
        return false
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
        case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
        case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
        case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
        case 0..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: #"\u00"#.utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        default: bytes.append(byte)
        }
    }

    private mutating func newline() {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 4))
    }
}
