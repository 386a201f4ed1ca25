import Crypto
import Foundation
import Locking

/// Tokens that passed validation, by their SHA-256, until they expire: at most `capacity`. When full, the expired
/// ones go, and if that frees nothing, all of them (each is validated again on its next use).
final class RememberedTokens: Sendable {
    private struct Entry {
        let token: ValidatedAccessToken
        let until: Date
    }

    private let capacity: Int
    private let entries = Locked<[SHA256Digest: Entry]>([:])

    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// The token remembered under `hash`, if it is still within its lifetime and skew.
    func token(_ hash: SHA256Digest, now: Date) -> ValidatedAccessToken? {
        entries.withLock { entries in
            guard let entry = entries[hash], entry.until > now else { return nil }
            return entry.token
        }
    }

    func remember(_ token: ValidatedAccessToken, hash: SHA256Digest, until: Date, now: Date) {
        guard capacity > 0 else { return }
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.until > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[hash] = Entry(token: token, until: until)
        }
    }
}
