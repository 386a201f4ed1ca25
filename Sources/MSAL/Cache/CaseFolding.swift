extension String {
    /// `lowercased()`, without making a new string when nothing needs lowering (GUIDs, hosts and field
    /// names usually arrive in lower case); the cache folds case on every key and lookup.
    var lowercasedIfNeeded: String {
        let needsLowering = utf8.withContiguousStorageIfAvailable(Self.hasUpperOrNonASCII) ?? utf8.contains(where: Self.isUpperOrNonASCII)
        return needsLowering ? lowercased() : self
    }

    /// A plain loop over the bytes, which the compiler turns into wide compares.
    private static func hasUpperOrNonASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var found: UInt8 = 0
        for byte in bytes { found |= (byte &- 0x41 < 26 ? 1 : 0) | (byte & 0x80) }
        return found != 0
    }

    private static func isUpperOrNonASCII(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 || byte >= 0x80 }
}
