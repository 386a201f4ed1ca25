import Foundation
import Logging
import MSAL
import MSALPostgres
import PostgresNIO
import TestServers
import Testing

extension PostgresStoreTests {
    @Suite("connections handed back to the pool")
    struct HandedBack {
        @Test(
            "a connection whose session the server ends mid-statement goes back to the pool only once closed: the next operation succeeds"
        )
        func sessionEndedMidStatement() async throws {
            try await fiveRoundsOnOneConnection { store, table, partition in
                let loads = try await PostgresConnection.withTableLocked(table) { blocker in
                    // The first load waits for the lock; the second starts the moment the first fails, while the
                    // client may not yet have read the end of the first one's session.
                    let loads = Task {
                        let first = await outcome { try await store.load(partition) }
                        let second = await outcome { try await store.load(partition) }
                        return (first, second)
                    }
                    let pid = try await waitingSession(on: table, blocker)
                    try await blocker.query("SELECT pg_terminate_backend(\(pid))", logger: Logger(label: "blocker"))
                    return loads
                }
                let (first, second) = await loads.value
                #expect(throws: MSALError.self) { try first.get() }
                #expect(try second.get()?.data == tokenBytes("a"))
            }
        }

        @Test("an operation waiting for the pool's only connection is served when the session on it ends")
        func waiterServedAfterClose() async throws {
            try await fiveRoundsOnOneConnection { store, table, partition in
                let loads = try await PostgresConnection.withTableLocked(table) { blocker in
                    let logger = Logger(label: "blocker")
                    let first = Task { await outcome { try await store.load(partition) } }
                    let pid = try await waitingSession(on: table, blocker)
                    // Waits in the pool's queue for the one connection, which the first load holds.
                    let second = Task { await outcome { try await store.load(partition) } }
                    for _ in 0..<3 { try await blocker.query("SELECT 1", logger: logger) }
                    try await blocker.query("SELECT pg_terminate_backend(\(pid))", logger: logger)
                    return (first, second)
                }
                let (first, second) = (await loads.0.value, await loads.1.value)
                #expect(throws: MSALError.self) { try first.get() }
                #expect(try second.get()?.data == tokenBytes("a"))
            }
        }
    }
}

/// Runs `round` five times on a store with one connection and no reserved one (each operation gets whatever the pool
/// was handed back last), its table and a partition holding `tokenBytes("a")`.
private func fiveRoundsOnOneConnection(
    _ round: (PostgresTokenCacheStore, String, TokenCachePartition) async throws -> Void
) async throws {
    let table = uniqueTableName()
    try await withStore(table: table, maximumConnections: 1) { store async throws in
        let partition = somePartition()
        _ = try await store.save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
        for _ in 0..<5 { try await round(store, table, partition) }
    }
}

/// The process id of the session waiting for a lock on `table`, asked on `session` until there is one.
private func waitingSession(on table: String, _ session: PostgresConnection) async throws -> Int32 {
    while true {
        let query: PostgresQuery =
            "SELECT pid FROM pg_locks WHERE relation = \(table)::regclass AND NOT granted LIMIT 1"
        if let pid = try await session.query(query, logger: Logger(label: "blocker")).collect().first {
            return try pid.decode(Int32.self)
        }
        try Task.checkCancellation()
    }
}

/// What `operation` returns or throws.
private func outcome<T>(_ operation: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await operation())
    } catch {
        return .failure(error)
    }
}
