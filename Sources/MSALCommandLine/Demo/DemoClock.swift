import Foundation
import Locking
import MSAL

/// The demo's clock: real time plus an offset the story moves ("an hour later…"), shared by the
/// library and the in-process emulator, so expiry and polling intervals pass instantly.
final class DemoClock: TimeSource, Sendable {
    private let offset = Locked<TimeInterval>(0)

    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }

    /// Waiting, in simulated time.
    func sleep(_ duration: Duration) async {
        advance(by: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        await Task.yield()
    }
}
