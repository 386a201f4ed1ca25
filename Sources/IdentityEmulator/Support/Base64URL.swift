import Foundation

/// Base64url without padding (RFC 7515 §2), as used by JWTs, PKCE and `client_info`.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes straight from bytes (token minting calls this several times per request).
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        append(bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    static func encode(_ string: String) -> String { encode(string.utf8) }

    /// Appends the encoding of `bytes` to `output` (a JWT is assembled in one buffer this way).
    static func append(_ bytes: some Sequence<UInt8>, to output: inout [UInt8]) {
        if bytes.withContiguousStorageIfAvailable({ append(buffer: $0, to: &output) }) == nil {
            Array(bytes).withUnsafeBufferPointer { append(buffer: $0, to: &output) }
        }
    }

    private static func append(buffer input: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let start = output.count
        let length = (input.count * 4 + 2) / 3
        output.append(contentsOf: repeatElement(0, count: length))
        output.withUnsafeMutableBufferPointer { output in
            alphabet.withUnsafeBufferPointer { alphabet in
                var (index, next) = (0, start)
                func put(_ chunk: UInt32, _ shift: UInt32) {
                    output[next] = alphabet[Int(chunk >> shift & 63)]
                    next += 1
                }
                while index + 2 < input.count {
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    put(chunk, 18)
                    put(chunk, 12)
                    put(chunk, 6)
                    put(chunk, 0)
                    index += 3
                }
                switch input.count - index {
                case 1:
                    let chunk = UInt32(input[index]) << 16
                    put(chunk, 18)
                    put(chunk, 12)
                case 2:
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                    put(chunk, 18)
                    put(chunk, 12)
                    put(chunk, 6)
                default: break
                }
            }
        }
    }

    /// Decodes unpadded base64url; `nil` for anything else (padding, other characters, a length that
    /// cannot be base64). Straight from the bytes: refresh tokens are decoded on every refresh grant.
    static func decode(_ text: some StringProtocol) -> Data? {
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            guard let value = sextet(byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard bits != 6 else { return nil }  // one character left over: not base64
        return Data(output)
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
