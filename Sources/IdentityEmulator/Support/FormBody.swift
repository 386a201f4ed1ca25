import Foundation

/// An `application/x-www-form-urlencoded` body or query string, decoded.
///
/// Repeated names keep their first value, as ESTS does.
struct FormBody: Sendable {
    private(set) var fields: [String: String] = [:]

    init(_ fields: [String: String]) { self.fields = fields }

    /// Decodes `a=1&b=two+words`; malformed percent escapes are kept literally.
    init(encoded text: Substring) {
        for pair in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = Self.decode(pair[pair.startIndex..<(equals ?? pair.endIndex)])
            guard !name.isEmpty, fields[name] == nil else { continue }
            fields[name] = equals.map { Self.decode(pair[pair.index(after: $0)...]) } ?? ""
        }
    }

    subscript(name: String) -> String? { fields[name] }

    /// The value, or `nil` when the field is missing or empty.
    func nonEmpty(_ name: String) -> String? {
        guard let value = fields[name], !value.isEmpty else { return nil }
        return value
    }

    /// `+` is a space, `%XX` a byte; invalid UTF-8 becomes U+FFFD.
    private static func decode(_ bytes: Substring.UTF8View.SubSequence) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), bytes.distance(from: index, to: bytes.endIndex) > 2,
                let high = hexValue(bytes[bytes.index(index, offsetBy: 1)]),
                let low = hexValue(bytes[bytes.index(index, offsetBy: 2)])
            {
                out.append(high << 4 | low)
                index = bytes.index(index, offsetBy: 3)
                continue
            } else {
                out.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Encodes pairs in the given order.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    static func escape(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: unreserved) ?? s
    }

    private static let unreserved = CharacterSet(
        charactersIn:
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
