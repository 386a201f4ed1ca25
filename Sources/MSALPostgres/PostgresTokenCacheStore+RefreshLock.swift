import Foundation
import MSAL
import PostgresNIO

extension PostgresTokenCacheStore {
    /// How far a lock holder has come; see ``withRefreshLock(_:timeout:_:)``.
    enum LockProgress: Sendable {
        /// It has a connection.
        case leased
        /// It holds the lock, on this connection.
        case acquired(PostgresConnection)
    }

    /// The connection that holds a refresh lock, for the store operations of the body run under it.
    struct LockConnection: Sendable {
        let store: ObjectIdentifier
        let connection: PostgresConnection
    }

    /// Set while a body runs under a refresh lock: its loads and saves use the lock's connection instead of another
    /// one from the pool, so that as many refreshes as the pool has connections can run at once without waiting for
    /// a second connection each (which, with the pool full of lock holders, none would get).
    @TaskLocal static var lockConnection: LockConnection?

    /// Runs `body` while holding the partition's refresh lock, a PostgreSQL session-level advisory lock, so that of
    /// the processes sharing the database one refreshes the partition's tokens while the others wait and then read
    /// them.
    ///
    /// A child task leases a connection of its own from the pool (within ``operationTimeout``) and polls
    /// `pg_try_advisory_lock` on it, with pauses from 5 to 100 ms, until it has the lock; it keeps the lock, and the
    /// connection, while `body` runs, then releases it with `pg_advisory_unlock`. The lock's key is the first 8
    /// bytes of the SHA-256 of the table's name and the partition's key, the same in every process.
    ///
    /// When the lock is not had within `timeout` (another process holds it, or PostgreSQL cannot be reached), or the
    /// store is shut down, `body` runs anyway, without it. When `body` throws, the lock is released all the same;
    /// when the task is cancelled, or unlocking fails or takes longer than ``operationTimeout``, the connection is
    /// closed, which ends the session and so releases the lock.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; never for the lock's sake.
    public nonisolated(nonsending) func withRefreshLock<T: Sendable>(
        _ partition: TokenCachePartition, timeout: Duration, _ body: () async throws -> T
    ) async throws -> T {
        guard !isShutDown else { return try await body() }
        let lock = AdvisoryLockID.refresh(table: table.name, partitionKey: partition.key)
        let (progress, progressSignal) = AsyncStream<LockProgress>.makeStream()
        let (released, releaseSignal) = AsyncStream<Void>.makeStream()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        // A task of its own, not a child: when the lock is not had in time it is cancelled and left to end, since
        // a connection lease does not always end soon after it is cancelled.
        let holder = Task { await self.holdRefreshLock(lock, progress: progressSignal, until: released) }
        let leased = await Self.next(progress, by: min(deadline, clock.now.advanced(by: operationTimeout)))
        let acquired = leased == nil ? nil : await Self.next(progress, by: deadline)
        var connection: PostgresConnection?
        if case .acquired(let locked) = acquired { connection = locked }
        let held = connection != nil
        if held {
            logger.debug("Holding the refresh lock of the \(partition.kind.rawValue) partition.")
        } else {
            holder.cancel()
            logger.debug(
                "The refresh lock of the \(partition.kind.rawValue) partition was not had in time; going on without it."
            )
        }
        let outcome: Result<T, any Error>
        do {
            if let connection {
                let lockConnection = LockConnection(store: ObjectIdentifier(self), connection: connection)
                outcome = .success(try await Self.$lockConnection.withValue(lockConnection) { try await body() })
            } else {
                outcome = .success(try await body())
            }
        } catch {
            outcome = .failure(error)
        }
        releaseSignal.finish()
        // Unlocking takes at most the operation timeout.
        if held { await holder.value }
        return try outcome.get()
    }

    /// The next stage `progress` yields before `deadline`; `nil` when it ends or the deadline passes first.
    private static func next(_ progress: AsyncStream<LockProgress>, by deadline: ContinuousClock.Instant) async
        -> LockProgress?
    {
        await withTaskGroup(of: LockProgress?.self) { group in
            group.addTask {
                for await stage in progress { return stage }
                return nil
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            let stage = await group.next()!
            group.cancelAll()
            return stage
        }
    }

    /// The lock holder: leases a connection, takes the lock, reports each step, keeps the lock until `released`
    /// ends, then releases it (within ``operationTimeout``, else closes the connection). When cancelled, it closes the
    /// connection. It never throws: a lock not had only means the body runs without it.
    private func holdRefreshLock(
        _ lock: AdvisoryLockID, progress: AsyncStream<LockProgress>.Continuation, until released: AsyncStream<Void>
    ) async {
        defer { progress.finish() }
        do {
            try await client.withLease { connection in
                progress.yield(.leased)
                var pause = Duration.milliseconds(5)
                while try await connection.value(
                    "SELECT pg_try_advisory_lock(\(lock.value))", as: Bool.self, logger: driverLogger) != true
                {
                    try await Task.sleep(for: pause)
                    pause = min(pause * 2, .milliseconds(100))
                }
                progress.yield(.acquired(connection))
                for await _ in released {}
                try Task.checkCancellation()
                let unlocked = try await withDeadline(operationTimeout) { [driverLogger] in
                    try await connection.value(
                        "SELECT pg_advisory_unlock(\(lock.value))", as: Bool.self, logger: driverLogger)
                }
                // Not holding it would mean the session is not the one that locked: never hand it back open.
                if unlocked != true { throw LockNotHeld() }
            }
        } catch {
            if !Task.isCancelled {
                logger.debug(
                    "The refresh lock's connection failed: \(cacheUnavailable(description, "lock", error, timeout: operationTimeout).message)"
                )
            }
        }
    }
}

/// Thrown when unlocking a refresh lock finds the session did not hold it: its connection is closed, not handed back.
private struct LockNotHeld: Error {}
