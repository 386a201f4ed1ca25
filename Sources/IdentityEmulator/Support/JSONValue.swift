import Foundation
import OutsideJSON

/// A JSON value whose objects keep their key order, so responses can match Microsoft's byte layout.
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    /// `nil` becomes `null`.
    public static func optional(_ string: String?) -> JSONValue {
        string.map(JSONValue.string) ?? .null
    }

    /// Compact UTF-8 serialisation (no spaces, `/` not escaped), as ESTS and Graph write it.
    public var serialized: String { String(decoding: serializedBytes, as: UTF8.self) }

    public var data: Data { Data(serializedBytes) }

    /// ``serialized`` as bytes, written straight into one buffer (every token and answer is built this way).
    var serializedBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: String(d).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
        return false
    }

    private static func writeString(_ s: String, to out: inout [UInt8]) {
        var s = s
        out.append(UInt8(ascii: "\""))
        // Fast path: most strings (ids, tokens, URLs) need no escaping and are copied whole.
        let copied = s.withUTF8 { bytes in
            guard !needsEscaping(bytes) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !copied {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out.append(contentsOf: "\\\"".utf8)
                case "\\": out.append(contentsOf: "\\\\".utf8)
                case "\n": out.append(contentsOf: "\\n".utf8)
                case "\r": out.append(contentsOf: "\\r".utf8)
                case "\t": out.append(contentsOf: "\\t".utf8)
                case _ where scalar.value < 0x20:
                    out.append(contentsOf: ("\\u" + String(format: "%04x", scalar.value)).utf8)
                default: out.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: Decodable {
    /// Parses JSON text of at most 250 KiB nesting at most 64 levels (`JSONLimits.message`); objects come back with
    /// sorted keys (used for inputs only).
    ///
    /// - Throws: `JSONRefusal` past the limits, else the decoder's `DecodingError`.
    public static func parse(_ data: Data) throws -> JSONValue {
        try JSONLimits.message.decode(JSONValue.self, from: data)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }
}

extension JSONValue {
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var intValue: Int? {
        if case .int(let i) = self { return i }
        return nil
    }
}
