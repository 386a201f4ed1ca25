import Foundation

/// Base64url without padding (RFC 7515 §2).
package enum Base64URL {
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
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
    package static func decode(_ text: some StringProtocol) -> Data? {
        decode(bytes: text.utf8)
    }

    /// Decodes the UTF-8 bytes of base64url text, as ``decode(_:)``.
    package static func decode(bytes text: some Collection<UInt8>) -> Data? {
        var bytes = text.map { byte in
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
