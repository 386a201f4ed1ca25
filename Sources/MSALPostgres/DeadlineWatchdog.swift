import Locking

/// Keeps the deadlines of the store's operations and fails those that pass theirs, checking every ``tick``: one
/// task wakes a few times a second while operations are in flight, instead of a timer armed and cancelled (each a
/// wake-up of another thread) per operation. A deadline is so met within one tick.
final class DeadlineWatchdog: Sendable {
    /// The one the store's operations share.
    static let shared = DeadlineWatchdog(tick: .milliseconds(50))

    /// How often deadlines are checked while any is kept.
    let tick: Duration
    /// How many ticks in a row with no deadline kept stop the checks (until the next deadline).
    let idleTicksBeforeStopping: Int

    /// One kept deadline.
    struct Watch: Sendable {
        fileprivate let id: Int
    }

    private struct Watched {
        let deadline: ContinuousClock.Instant
        let expired: @Sendable () -> Void
    }

    private struct State {
        var watched: [Int: Watched] = [:]
        var nextID = 0
        var isTicking = false
    }

    private let state = Locked(State())

    /// - Parameters:
    ///   - tick: how often deadlines are checked.
    ///   - idleFor: how long the checks go on with no deadline kept.
    init(tick: Duration, idleFor: Duration = .seconds(1)) {
        self.tick = tick
        self.idleTicksBeforeStopping = max(1, Int(idleFor / tick))
    }

    /// Whether the checks are running.
    var isTicking: Bool { state.withLock { $0.isTicking } }

    /// Calls `expired` once `deadline` has passed (within a tick), unless ``unwatch(_:)`` comes first.
    func watch(until deadline: ContinuousClock.Instant, expired: @escaping @Sendable () -> Void) -> Watch {
        let (id, startTicking) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.watched[id] = Watched(deadline: deadline, expired: expired)
            defer { state.isTicking = true }
            return (id, !state.isTicking)
        }
        if startTicking { Task { await self.tickWhileWatching() } }
        return Watch(id: id)
    }

    /// Forgets a deadline.
    func unwatch(_ watch: Watch) {
        _ = state.withLock { $0.watched.removeValue(forKey: watch.id) }
    }

    /// Checks every tick until ``idleTicksBeforeStopping`` ticks in a row had nothing to watch.
    private func tickWhileWatching() async {
        var idleTicks = 0
        while idleTicks < idleTicksBeforeStopping {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let (expired, isIdle) = state.withLock { state in
                let expired = state.watched.filter { $0.value.deadline <= now }
                for id in expired.keys { state.watched[id] = nil }
                let isIdle = state.watched.isEmpty
                if isIdle && idleTicks + 1 >= idleTicksBeforeStopping { state.isTicking = false }
                return (expired.values.map(\.expired), isIdle)
            }
            for call in expired { call() }
            idleTicks = isIdle ? idleTicks + 1 : 0
        }
    }
}
