extension String {
    /// `lowercased()`, without making a new string when nothing needs lowering (GUIDs, hosts and field
    /// names usually arrive in lower case); the cache folds case on every key and lookup.
    var lowercasedIfNeeded: String {
        let found = utf8.withContiguousStorageIfAvailable(Self.upperOrNonASCII) ?? Self.upperOrNonASCII(in: utf8)
        if found == 0 { return self }
        return found & 0x80 == 0 ? asciiLowercased() : lowercased()
    }

    /// `lowercased()` for ASCII text, byte by byte (a short result stays a small string, unallocated).
    private func asciiLowercased() -> String {
        String(unsafeUninitializedCapacity: utf8.count) { buffer in
            var index = 0
            for byte in utf8 {
                buffer[index] = byte.asciiLowercased
                index += 1
            }
            return index
        }
    }

    /// A plain loop over the bytes, which the compiler turns into wide compares: bit 0 set when an
    /// upper-case ASCII letter occurs, bit 7 when a non-ASCII byte does.
    private static func upperOrNonASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        upperOrNonASCII(in: bytes)
    }

    private static func upperOrNonASCII(in bytes: some Sequence<UInt8>) -> UInt8 {
        var found: UInt8 = 0
        for byte in bytes { found |= (byte &- 0x41 < 26 ? 1 : 0) | (byte & 0x80) }
        return found
    }
}

extension UInt8 {
    /// The byte with an ASCII capital letter lowered; every other byte as it is.
    var asciiLowercased: UInt8 { self &- 0x41 < 26 ? self | 0x20 : self }
}

extension StringProtocol {
    /// Whether `caseInsensitiveCompare(other)` finds the two the same, compared byte by byte when both are ASCII:
    /// Foundation's comparison bridges both strings to `NSString` on Linux, and the cache compares section names,
    /// client ids and realms on every load and lookup.
    func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        let (lhs, rhs) = (utf8, other.utf8)
        guard lhs.allSatisfy({ $0 < 0x80 }), rhs.allSatisfy({ $0 < 0x80 }) else {
            return caseInsensitiveCompare(other) == .orderedSame
        }
        return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.asciiLowercased == $1.asciiLowercased }
    }
}
