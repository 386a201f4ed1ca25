import Foundation

/// An `application/x-www-form-urlencoded` body or query string, decoded.
///
/// Repeated names keep their first value, as ESTS does.
struct FormBody: Sendable {
    private(set) var fields: [String: String] = [:]

    init(_ fields: [String: String]) { self.fields = fields }

    /// Decodes `a=1&b=two+words`; malformed percent escapes are kept literally.
    init(encoded text: Substring) {
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            guard !name.isEmpty, fields[name] == nil else { continue }
            fields[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
    }

    subscript(name: String) -> String? { fields[name] }

    /// The value, or `nil` when the field is missing or empty.
    func nonEmpty(_ name: String) -> String? {
        guard let value = fields[name], !value.isEmpty else { return nil }
        return value
    }

    private static func decode(_ s: Substring) -> String {
        let spaced = s.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Encodes pairs in the given order.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    static func escape(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: unreserved) ?? s
    }

    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
