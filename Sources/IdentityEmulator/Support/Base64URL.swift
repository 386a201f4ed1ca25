import Foundation

/// Base64url without padding (RFC 7515 §2), as used by JWTs, PKCE and `client_info`.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes straight from bytes (token minting calls this several times per request).
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 2 < input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = input.count - index
        if remaining == 1 {
            let chunk = UInt32(input[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
        } else if remaining == 2 {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func encode(_ string: String) -> String { encode(string.utf8) }

    /// Decodes with or without padding; `nil` for anything that is not base64url.
    static func decode(_ text: some StringProtocol) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !s.contains("=") else { return nil }
        switch s.count % 4 {
        case 2: s += "=="
        case 3: s += "="
        case 1: return nil
        default: break
        }
        return Data(base64Encoded: s)
    }
}
