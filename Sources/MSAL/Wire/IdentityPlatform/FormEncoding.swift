import Foundation

/// `application/x-www-form-urlencoded` encoding (RFC 3986 unreserved characters kept).
package enum FormEncoding {
    private static let unreserved = CharacterSet(
        charactersIn:
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    package static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    package static func escape(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: unreserved) ?? s
    }

    /// Decodes `a=1&b=two+words`; the first value of a repeated name wins.
    package static func decode(_ text: some StringProtocol) -> [String: String] {
        var out: [String: String] = [:]
        for pair in String(text).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(parts[0])
            if out[name] == nil { out[name] = parts.count > 1 ? unescape(parts[1]) : "" }
        }
        return out
    }

    private static func unescape(_ s: Substring) -> String {
        let spaced = s.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
