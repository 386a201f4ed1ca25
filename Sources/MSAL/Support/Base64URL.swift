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

    /// Decodes the UTF-8 bytes of base64url text, as ``decode(_:)``: a string's own bytes in place (a token's parts
    /// are substrings of it), others copied first.
    package static func decode(bytes text: some Collection<UInt8>) -> Data? {
        text.withContiguousStorageIfAvailable(decode(contiguous:))
            ?? Array(text).withUnsafeBufferPointer(decode(contiguous:))
    }

    /// The text in base64's alphabet, padded, then decoded by Foundation.
    private static func decode(contiguous text: UnsafeBufferPointer<UInt8>) -> Data? {
        var count = text.count
        if text.last == UInt8(ascii: "="), let padding = text.firstIndex(of: UInt8(ascii: "=")) { count = padding }
        guard count % 4 != 1 else { return nil }
        var base64 = [UInt8](repeating: UInt8(ascii: "="), count: (count + 3) / 4 * 4)
        for index in 0..<count {
            base64[index] =
                switch text[index] {
                case UInt8(ascii: "-"): UInt8(ascii: "+")
                case UInt8(ascii: "_"): UInt8(ascii: "/")
                case let byte: byte
                }
        }
        return Data(base64Encoded: Data(base64))
    }
}
