import Foundation

/// Base64url without padding (RFC 7515 §2).
enum Base64URL {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let base64 = Data(bytes).base64EncodedData()
        return String(
            decoding: base64.lazy.filter { $0 != UInt8(ascii: "=") }.map { byte in
                switch byte {
                case UInt8(ascii: "+"): UInt8(ascii: "-")
                case UInt8(ascii: "/"): UInt8(ascii: "_")
                default: byte
                }
            }, as: UTF8.self)
    }

    /// Decodes with or without padding; `nil` for anything else. Works on the bytes (Foundation's
    /// string replacing is slow on first use, and a CLI decodes an ID token on every run).
    static func decode(_ text: some StringProtocol) -> Data? {
        var bytes = text.utf8.map { byte in
            switch byte {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            default: byte
            }
        }
        if bytes.last == UInt8(ascii: "="), let padding = bytes.firstIndex(of: UInt8(ascii: "=")) {
            bytes.removeSubrange(padding...)
        }
        switch bytes.count % 4 {
        case 2: bytes += [UInt8(ascii: "="), UInt8(ascii: "=")]
        case 3: bytes.append(UInt8(ascii: "="))
        case 1: return nil
        default: break
        }
        return Data(base64Encoded: Data(bytes))
    }
}

/// `application/x-www-form-urlencoded` encoding (RFC 3986 unreserved characters kept).
enum FormEncoding {
    private static let unreserved = CharacterSet(
        charactersIn:
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    static func escape(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: unreserved) ?? s }

    /// Decodes `a=1&b=two+words`; the first value of a repeated name wins.
    static func decode(_ text: some StringProtocol) -> [String: String] {
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
