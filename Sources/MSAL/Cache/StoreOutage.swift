import Foundation
import Locking
import Logging

/// A store outage, shared by the partitions of one ``PartitionedTokenCache``: logged once when it begins and
/// once when it ends, never with a token or partition key. While it lasts the store is left alone, so that
/// acquiring a token does not wait out the store's timeout on every call; it is asked again once `retryInterval`
/// has passed since it last failed.
final class StoreOutage: Sendable {
    private struct State {
        var down = false
        var retryAt = Date.distantPast
    }

    private let logger: Logger
    private let clock: any TimeSource
    private let retryInterval: TimeInterval
    private let state = Locked(State())

    init(logger: Logger, clock: any TimeSource, retryInterval: Duration) {
        self.logger = logger
        self.clock = clock
        self.retryInterval =
            Double(retryInterval.components.seconds) + Double(retryInterval.components.attoseconds) / 1e18
    }

    /// Whether the store failed less than `retryInterval` ago, so it should not be asked yet.
    var isWaiting: Bool {
        let now = clock.now()
        return state.withLock { $0.down && now < $0.retryAt }
    }

    func began(_ error: any Error, partition: TokenCachePartition) {
        let retryAt = clock.now().addingTimeInterval(retryInterval)
        let began = state.withLock { state in
            defer { state = State(down: true, retryAt: retryAt) }
            return !state.down
        }
        guard began else { return }
        let reason =
            (error as? MSALError).map { "\($0.code.category) \($0.internalCode.map { "\($0)" } ?? "")" }
            ?? "\(type(of: error))"
        logger.warning(
            "token cache store unavailable; tokens come from memory and the identity platform until it is back",
            metadata: [
                "partition_kind": "\(partition.kind.rawValue)", "error": "\(reason)",
                "retry_interval_s": "\(retryInterval)",
            ])
    }

    func ended() {
        let ended = state.withLock { state in
            defer { state.down = false }
            return state.down
        }
        guard ended else { return }
        logger.notice("token cache store is back; changes are saved to it again")
    }
}
