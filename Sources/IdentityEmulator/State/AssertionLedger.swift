import Foundation

/// The client assertions seen, by `jti`, until they expire.
///
/// Entra accepts the same assertion again within its lifetime (MSAL Python reuses one for nine minutes,
/// `server-side.md` §1.2), so replaying an identical assertion is allowed; a *different* assertion with a
/// `jti` already used is refused (the emulator's choice: ESTS's behaviour there is unverified).
/// Entries are dropped once their assertion expired, and kept a day at most (Entra does not limit `exp`),
/// so the memory stays bounded.
struct AssertionLedger: Sendable {
    /// The longest an entry is kept, whatever the assertion's `exp`.
    static let maximumRetention: TimeInterval = 86_400

    private var entries: [String: (digest: String, expiresAt: Date)] = [:]
    /// The count at which expired entries are swept next (amortised: the threshold doubles with the live set).
    private var sweepAt = 1024

    /// Records an assertion; false when another assertion already used `key` (issuer and `jti`).
    mutating func record(key: String, digest: String, expiresAt: Date, now: Date) -> Bool {
        if let known = entries[key], known.expiresAt > now { return known.digest == digest }
        entries[key] = (digest, min(expiresAt, now.addingTimeInterval(Self.maximumRetention)))
        if entries.count >= sweepAt {
            entries = entries.filter { $0.value.expiresAt > now }
            sweepAt = max(1024, entries.count * 2)
        }
        return true
    }
}
