import Foundation

/// Eight bytes at a time: masks with the high bit set in each byte of a word that matches. The lowest
/// flagged byte always matches; bytes above a match may be flagged too (a borrow), so use a mask for
/// "any" or for "the first", never to count.
package enum ByteWords {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }

    @inline(__always)
    static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 { zeroBytes(word ^ (ones &* UInt64(byte))) }

    @inline(__always)
    static func bytes(below byte: UInt8, in word: UInt64) -> UInt64 { (word &- ones &* UInt64(byte)) & ~word & highs }

    /// The offset of the first `"` or `\` in `bytes`, or `bytes.count` when there is none: word by word
    /// through the first 32 bytes (most strings in a cache end there), then with `memchr`, which is
    /// faster on long ones (tokens).
    static func firstQuoteOrBackslash(in bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset + 8 <= min(bytes.count, 32) {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let found =
                Self.bytes(equalTo: UInt8(ascii: "\""), in: word) | Self.bytes(equalTo: UInt8(ascii: "\\"), in: word)
            if found != 0 { return offset + found.trailingZeroBitCount / 8 }
            offset += 8
        }
        guard let base = bytes.baseAddress, offset < bytes.count else { return offset }
        let quote =
            memchr(base + offset, Int32(UInt8(ascii: "\"")), bytes.count - offset).map { base.distance(to: $0) }
            ?? bytes.count
        let backslash = memchr(base + offset, Int32(UInt8(ascii: "\\")), quote - offset).map { base.distance(to: $0) }
        return backslash ?? quote
    }

    /// Whether any byte of `bytes` is a control character, `"` or `\`, which a JSON string must escape: 32 bytes per
    /// step, eight per word. Both JSON writers (the token cache's and the command line's) copy a string whole when
    /// it needs none, as tokens never do.
    package static func needJSONEscaping(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 32 <= bytes.count {
            var found: UInt64 = 0
            for word in 0..<4 {
                found |= jsonSpecialBytes(bytes.loadUnaligned(fromByteOffset: offset + 8 * word, as: UInt64.self))
            }
            if found != 0 { return true }
            offset += 32
        }
        while offset + 8 <= bytes.count {
            if jsonSpecialBytes(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) != 0 { return true }
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            offset += 1
        }
        return false
    }

    /// Non-zero when a byte of `word` is below 0x20, a quote or a backslash ("has a zero byte" after
    /// XOR with the quote or backslash; exact for detection).
    private static func jsonSpecialBytes(_ word: UInt64) -> UInt64 {
        bytes(below: 0x20, in: word) | bytes(equalTo: UInt8(ascii: "\""), in: word)
            | bytes(equalTo: UInt8(ascii: "\\"), in: word)
    }
}
