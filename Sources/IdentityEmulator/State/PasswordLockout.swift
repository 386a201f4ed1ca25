import Foundation
import Locking

/// Entra's smart lockout for the emulator's password checks (the sign-in page, ROPC and native authentication): after
/// ``threshold`` wrong passwords in a row an account is locked for ``duration``, during which even the right
/// password gets AADSTS50053. A right password resets the count.
final class PasswordLockout: Sendable {
    /// Wrong passwords in a row that lock an account (Entra's default).
    static let threshold = 10
    /// How long an account stays locked (Entra's default).
    static let duration: TimeInterval = 60

    enum Verdict: Equatable {
        case accepted
        case wrong
        case locked
    }

    private struct Account {
        var failures = 0
        var lockedUntil: Date?
    }

    private let accounts = Locked([String: Account]())

    /// Checks a password attempt for `userID`: `matches` is whether the password was right.
    func attempt(userID: String, matches: Bool, now: Date) -> Verdict {
        accounts.withLock { accounts in
            var account = accounts[userID.lowercased()] ?? Account()
            defer { accounts[userID.lowercased()] = account }
            if let until = account.lockedUntil, until > now { return .locked }
            account.lockedUntil = nil
            guard !matches else {
                account.failures = 0
                return .accepted
            }
            account.failures += 1
            if account.failures >= Self.threshold {
                account.failures = 0
                account.lockedUntil = now.addingTimeInterval(Self.duration)
            }
            return .wrong
        }
    }

    /// Forgets every count and lock (`POST /_emulator/reset`).
    func reset() { accounts.withLock { $0 = [:] } }
}
