/// Compares a secret someone sent with the one on record (a client secret, a password, a managed identity
/// host's header) in time that does not depend on where they differ: every byte of both is read and combined,
/// so how long a refusal takes tells nothing about how much of a guess was right.
enum SecretComparison {
    /// Whether `given` is `expected`, byte for byte; `nil` matches nothing.
    static func matches(_ given: String?, _ expected: String?) -> Bool {
        guard let given, let expected else { return false }
        return equal(given.utf8, expected.utf8)
    }

    /// Whether two byte sequences are equal, reading all of both whatever they hold.
    static func equal(_ given: some Collection<UInt8>, _ expected: some Collection<UInt8>) -> Bool {
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        var left = given.makeIterator()
        var right = expected.makeIterator()
        for _ in 0..<max(given.count, expected.count) {
            difference |= (left.next() ?? 0) ^ (right.next() ?? 0)
        }
        return difference == 0
    }
}
