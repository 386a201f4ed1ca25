import Crypto
import Foundation

extension SHA256 {
    /// The SHA-256 digest of `data` in lower-case hexadecimal (64 digits): the keyring manifest's checksum, the
    /// token a managed identity endpoint is asked to refresh, a throttled request's key.
    static func hex(of data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(2 * SHA256.byteCount)
        for byte in hash(data: data) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
