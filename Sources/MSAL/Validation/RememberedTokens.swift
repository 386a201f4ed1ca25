import Foundation
import Locking

/// Tokens that passed validation, until they expire: at most `capacity`. Each is found by a key made from part of it
/// (the validator's: a seeded hash of its last 64 bytes) and recognised by its whole text, so two tokens that share
/// that part are never taken for each other. When full, the expired ones go, and if that frees nothing, all of them
/// (each is validated again on its next use).
final class RememberedTokens: Sendable {
    private struct Entry {
        let token: ValidatedAccessToken
        let until: Date
    }

    private let capacity: Int
    private let entries = Locked<[Int: Entry]>([:])

    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// The token remembered under `key` whose text is `text`, if it is still within its lifetime and skew.
    func token(_ key: Int, text: Substring, now: Date) -> ValidatedAccessToken? {
        guard let entry = entries.withLock({ $0[key] }), entry.until > now, Self.same(entry.token.rawValue, text) else {
            return nil
        }
        return entry.token
    }

    /// Whether `text` is `remembered`, byte for byte (a token is ASCII): a comparison of memory where both are
    /// contiguous, as they are coming from a request's header.
    private static func same(_ remembered: String, _ text: Substring) -> Bool {
        let same = remembered.utf8.withContiguousStorageIfAvailable { stored in
            text.utf8.withContiguousStorageIfAvailable { sent in
                stored.count == sent.count
                    && (stored.isEmpty || memcmp(stored.baseAddress!, sent.baseAddress!, stored.count) == 0)
            }
        }
        return (same ?? nil) ?? remembered.utf8.elementsEqual(text.utf8)
    }

    func remember(_ token: ValidatedAccessToken, key: Int, until: Date, now: Date) {
        guard capacity > 0 else { return }
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.until > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = Entry(token: token, until: until)
        }
    }
}
