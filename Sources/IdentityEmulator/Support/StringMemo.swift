import Locking

/// Strings worth remembering because making them costs more than looking them up (signed ID tokens,
/// pairwise subjects), by a key that determines them. Forgets everything when full.
final class StringMemo: Sendable {
    private let values = Locked<[String: String]>([:])
    private let capacity: Int

    init(capacity: Int = 4096) { self.capacity = capacity }

    /// The value remembered for `key`, else the one `make` returns (then remembered).
    func value(for key: String, make: () throws -> String) rethrows -> String {
        if let known = values.withLock({ $0[key] }) { return known }
        let value = try make()
        values.withLock { memo in
            if memo.count >= capacity { memo.removeAll(keepingCapacity: true) }
            memo[key] = value
        }
        return value
    }
}
