import Locking
import PostgresNIO

extension PostgresClient {
    /// Runs `body` on a connection leased from the pool, closing the connection if the task is cancelled, and hands
    /// the connection back.
    ///
    /// A connection whose state is in doubt afterwards (the task was cancelled, `body` threw anything but the
    /// server's ordinary answer to a statement, or the connection closed) is closed, and handed back only once it has
    /// closed: the pool watches each connection's close, and a connection handed back before the pool saw it close
    /// could be leased out again, to an operation whose statement postgres-nio 1.33.2 would never answer. A task
    /// cancelled before it got the connection throws `CancellationError` without writing to it.
    ///
    /// After a closed connection is handed back, the pool is asked for a lease once more (see
    /// ``wakeWaitingLeases()``).
    func withLease<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let closed = Locked(false)
        defer { if closed.withLock({ $0 }) { wakeWaitingLeases() } }
        return try await withConnection { connection in
            do {
                try Task.checkCancellation()
                let result = try await closingOnCancel(connection) { try await body(connection) }
                if connection.isClosed {
                    closed.withLock { $0 = true }
                    await connection.closeAndWait()
                }
                return result
            } catch {
                if Task.isCancelled || connection.isClosed || !error.isOrdinaryServerAnswer {
                    closed.withLock { $0 = true }
                    await connection.closeAndWait()
                }
                throw error
            }
        }
    }

    /// Asks the pool for a lease and hands it straight back, in a task of its own. postgres-nio 1.33.2's pool makes a
    /// connection for the leases waiting in its queue only when a lease is asked for or a connection is handed back
    /// open: when a leased connection closes, its place is freed, but the leases waiting for one go on waiting until
    /// one of those happens. A lease asked for now has the pool make a connection, which goes to the longest waiter
    /// (and this lease is served after it, or at once when nothing waits).
    func wakeWaitingLeases() {
        Task { try? await withConnection { _ in } }
    }
}

extension PostgresConnection {
    /// Closes the connection, unless it is closed, and waits until it has; the pool's own watch on the close runs
    /// first, since it was registered when the connection was made.
    func closeAndWait() async {
        let close: () -> Void = self.close
        close()
        _ = try? await closeFuture.get()
    }
}

extension Error {
    /// Whether this is the server's answer to a statement with severity `ERROR` (a constraint, a timeout, a missing
    /// table), after which the session goes on; a `FATAL` answer (the server shutting down, the session terminated)
    /// ends it.
    var isOrdinaryServerAnswer: Bool {
        switch self {
        case let error as PSQLError:
            return error.code == .server && error.serverInfo?[.severity] == "ERROR"
        case let error as PostgresError:
            guard case .server(let answer) = error else { return false }
            return answer.fields[.severity] == "ERROR"
        default:
            return false
        }
    }
}
