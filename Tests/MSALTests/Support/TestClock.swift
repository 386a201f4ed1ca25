import Foundation
import Locking
import MSAL

/// One clock for the library and the emulator, moved by tests instead of waiting.
final class TestClock: TimeSource, Sendable {
    private let current: Locked<Date>

    /// A clock at `start`; a fixed date unless a test talks to a server that keeps its own time (an outside
    /// identity provider), whose tokens it must then find fresh.
    init(start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = Locked(start) }

    func now() -> Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
