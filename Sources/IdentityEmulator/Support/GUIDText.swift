import Foundation

/// Lower-case GUID text from 16 bytes, without `String(format:)` (it runs on every request).
enum GUIDText {
    private static let digits = Array("0123456789abcdef".utf8)

    static func from(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (i, byte) in bytes.prefix(16).enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A random (version 4) GUID.
    static func random() -> String {
        let u = UUID().uuid
        return from([u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
    }
}
