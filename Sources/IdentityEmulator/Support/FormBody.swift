import Foundation
import WebText

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
        // A `+` read as a space first: `%2B` still decodes to `+`, and a space is never a hex digit.
        let spaced = bytes.lazy.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
        return String(decoding: PercentDecoding.decoded(spaced), as: UTF8.self)
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
