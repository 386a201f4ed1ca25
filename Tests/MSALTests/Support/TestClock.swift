import Foundation
import Locking
import MSAL

/// One clock for the library and the emulator, moved by tests instead of waiting.
final class TestClock: TimeSource, Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_795_000_000))

    func now() -> Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
