extension String {
    /// `lowercased()`, without making a new string when nothing needs lowering (GUIDs, hosts and field
    /// names usually arrive in lower case); the cache folds case on every key and lookup.
    var lowercasedIfNeeded: String {
        utf8.contains { (0x41...0x5A).contains($0) || $0 >= 0x80 } ? lowercased() : self
    }
}
