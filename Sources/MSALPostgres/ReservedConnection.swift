import Locking
import PostgresNIO

/// One of the pool's connections, kept leased and lent to one operation at a time. An operation that finds it free
/// runs its prepared statement in the caller's task: it neither leases from the pool nor starts a task of its own to
/// keep its deadline, so on loopback, where the round trip itself is short, it costs little more than the statement.
/// An operation that finds it lent goes through the pool.
///
/// A holder task leases the connection, prepares it (within a deadline) and keeps the lease until the connection
/// closes, fails an operation or the store shuts down. The next operation after that starts a holder again, which
/// waits in the pool's queue while PostgreSQL is down and gets a connection once it is back.
final class ReservedConnection: Sendable {
    private enum Lending {
        /// No connection, and no holder asking for one.
        case none
        /// The holder numbered so asks the pool for a connection and prepares it.
        case leasing(holder: Int)
        case free(PostgresConnection)
        case lent(PostgresConnection)
        case shutDown
    }

    private struct State {
        var lending = Lending.none
        /// Ends the holder's lease; with `true` when the connection was closed, so the holder waits until the pool
        /// has seen it close before handing it back (else the pool could lease it out again, and a statement written
        /// to a closed connection is never answered).
        var release: CheckedContinuation<Bool, Never>?
        var holder: Task<Void, Never>?
        var holdersStarted = 0
    }

    private let state = Locked(State())
    /// How long preparing a newly leased connection may take.
    private let preparationTimeout: Duration

    init(preparationTimeout: Duration) {
        self.preparationTimeout = preparationTimeout
    }

    /// The connection, lent to the caller until ``giveBack(_:healthy:)``; `nil` when it is lent already or not leased,
    /// in which case a holder starts leasing one from `client`, unless one is already, and offers it once `preparing`
    /// has made it ready (its table and statements; a connection it fails on goes back to the pool).
    func borrow(
        from client: PostgresClient, preparing: @escaping @Sendable (PostgresConnection) async throws -> Void
    ) -> PostgresConnection? {
        let (connection, newHolder, release) = state.withLock {
            state -> (PostgresConnection?, Int?, CheckedContinuation<Bool, Never>?) in
            func startHolder() -> Int {
                state.holdersStarted += 1
                state.lending = .leasing(holder: state.holdersStarted)
                return state.holdersStarted
            }
            switch state.lending {
            case .free(let connection) where !connection.isClosed:
                state.lending = .lent(connection)
                return (connection, nil, nil)
            case .free:
                // Closed before its close was reported: its lease ends, and another is asked for.
                return (nil, startHolder(), state.release.take())
            case .none:
                return (nil, startHolder(), nil)
            case .leasing, .lent, .shutDown:
                return (nil, nil, nil)
            }
        }
        release?.resume(returning: true)
        if let newHolder {
            let holder = Task { await self.hold(newHolder, leasingFrom: client, preparing: preparing) }
            let isShutDown = state.withLock { state in
                guard case .shutDown = state.lending else {
                    state.holder = holder
                    return false
                }
                return true
            }
            if isShutDown { holder.cancel() }
        }
        return connection
    }

    /// Takes back the lent connection: free for the next operation when it is `healthy` and open; otherwise closed,
    /// and its lease ended.
    func giveBack(_ connection: PostgresConnection, healthy: Bool) {
        let keep = healthy && !connection.isClosed
        if !keep {
            let close: () -> Void = connection.close
            close()
        }
        let release = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard case .lent(let lent) = state.lending, lent === connection else { return nil }
            if keep {
                state.lending = .free(connection)
                return nil
            }
            state.lending = .none
            return state.release.take()
        }
        release?.resume(returning: true)
    }

    /// Ends the lease for good: the holder is cancelled, which closes the connection and hands it back.
    func shutdown() {
        let (release, holder) = state.withLock { state in
            state.lending = .shutDown
            return (state.release.take(), state.holder.take())
        }
        release?.resume(returning: false)
        holder?.cancel()
    }

    /// The holder: leases a connection, prepares and offers it, and keeps the lease until it is ended.
    private func hold(
        _ number: Int, leasingFrom client: PostgresClient,
        preparing: @escaping @Sendable (PostgresConnection) async throws -> Void
    ) async {
        do {
            try await client.withLease { connection in
                try await withDeadline(preparationTimeout) { try await preparing(connection) }
                connection.closeFuture.whenComplete { _ in self.closed(connection) }
                let closed = await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let offered = state.withLock { state in
                            guard case .leasing(holder: number) = state.lending, !connection.isClosed, !Task.isCancelled
                            else {
                                return false
                            }
                            state.lending = .free(connection)
                            state.release = continuation
                            return true
                        }
                        if !offered { continuation.resume(returning: false) }
                    }
                } onCancel: {
                    state.withLock { $0.release.take() }?.resume(returning: false)
                }
                // Closed by an operation that failed on it: handed back once the pool has seen it close.
                if closed { throw ConnectionGivenUp() }
            }
        } catch {
            // Not offered, or given up (PostgreSQL down, preparing failed or took too long, the pool shutting down): a
            // later operation asks again.
        }
        state.withLock { state in
            if case .leasing(holder: number) = state.lending { state.lending = .none }
        }
    }

    /// The free connection closed (the server ended the session): its lease ends. A lent one is given back by its
    /// operation, which fails.
    private func closed(_ connection: PostgresConnection) {
        let release = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard case .free(let free) = state.lending, free === connection else { return nil }
            state.lending = .none
            return state.release.take()
        }
        release?.resume(returning: false)
    }
}

/// Thrown by the holder to have its connection, which an operation failed on, closed and handed back once closed.
private struct ConnectionGivenUp: Error {}

extension Optional {
    /// The value, leaving `nil` behind.
    fileprivate mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
