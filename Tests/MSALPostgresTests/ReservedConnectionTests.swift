import Foundation
import Locking
import Logging
import MSAL
import PostgresNIO
import TestServers
import Testing

@testable import MSALPostgres

extension PostgresStoreTests {
    @Suite("the reserved connection")
    struct Reserved {
        @Test(
            "lent to one operation at a time once prepared; a failed one is closed and replaced, as is one the server ends"
        )
        func lending() async throws {
            try await withPool { client in
                let reserved = ReservedConnection(preparationTimeout: .seconds(30))
                let first = try await lent(reserved, client)
                #expect(reserved.borrow(from: client, preparing: { _ in }) == nil)
                reserved.giveBack(first, healthy: true)
                #expect(try await lent(reserved, client) === first)

                // An operation failed on it: closed, and another one leased.
                reserved.giveBack(first, healthy: false)
                try await first.closeFuture.get()
                let second = try await lent(reserved, client)
                #expect(second !== first && !second.isClosed)

                // The server ends its session while it is free: another one is leased.
                let pid = try #require(
                    try await second.value("SELECT pg_backend_pid()", as: Int32.self, logger: Logger(label: "test")))
                reserved.giveBack(second, healthy: true)
                try await client.withConnection { other in
                    try await other.drain("SELECT pg_terminate_backend(\(pid))", logger: Logger(label: "test"))
                }
                try await second.closeFuture.get()
                let third = try await lent(reserved, client)
                #expect(third !== second && !third.isClosed)
                reserved.giveBack(third, healthy: true)

                // After shutdown it is lent no more, and the pool has it back: both its connections lease at once.
                reserved.shutdown()
                #expect(reserved.borrow(from: client, preparing: { _ in }) == nil)
                try await client.withConnection { _ in try await client.withConnection { _ in } }
            }
        }

        @Test("a connection that cannot be prepared is never lent, and goes back to the pool")
        func preparationFails() async throws {
            try await withPool { client in
                let reserved = ReservedConnection(preparationTimeout: .seconds(30))
                let attempts = Locked(0)
                // The server refuses a statement of the preparation, as it would a table the role may not make: the
                // session goes on, so the connection goes back to the pool open.
                let failing: @Sendable (PostgresConnection) async throws -> Void = { connection in
                    attempts.withLock { $0 += 1 }
                    try await connection.drain("SELECT * FROM no_such_table", logger: Logger(label: "test"))
                }
                for _ in 0..<50 {
                    #expect(reserved.borrow(from: client, preparing: failing) == nil)
                    try await client.withConnection { try await $0.drain("SELECT 1", logger: Logger(label: "test")) }
                }
                #expect(attempts.withLock { $0 } > 0)
                // No lease is kept: both of the pool's connections lease at once (a kept one would hang this until the
                // suite's time limit).
                try await client.withConnection { _ in try await client.withConnection { _ in } }
                reserved.shutdown()
            }
        }

        @Test("many operations at once, some on the reserved connection and the rest through the pool, all land")
        func concurrentOperations() async throws {
            try await withStore(maximumConnections: 3) { store async throws in
                #expect(store.reserved != nil)
                let partitions = (0..<40).map { _ in somePartition() }
                for round in 1...3 {
                    let versions = try await withThrowingTaskGroup(of: Int64?.self) { group in
                        for (index, partition) in partitions.enumerated() {
                            group.addTask {
                                let stored = try await store.load(partition)
                                return try await store.save(
                                    tokenBytes("\(index).\(round)"), for: partition, expiresOn: inAnHour,
                                    expectedVersion: stored?.version)
                            }
                        }
                        return try await group.reduce(into: [Int64?]()) { $0.append($1) }
                    }
                    #expect(versions == Array(repeating: Int64(round), count: partitions.count))
                }
                for (index, partition) in partitions.enumerated() {
                    #expect(try await store.load(partition)?.data == tokenBytes("\(index).3"))
                }
            }
        }

        @Test("the server ending every session of the store: operations fail with cacheUnavailable, then connect anew")
        func sessionsEnded() async throws {
            let cluster = try PostgresCluster.current
            let name = "reserved_\(UUID().uuidString.prefix(8).lowercased())"
            try await withStore(url: cluster.socketURL + "&application_name=\(name)") { store async throws in
                let partition = somePartition()
                #expect(
                    try await store.save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                        == 1)
                for _ in 0..<20 { _ = try await store.load(partition) }

                let ended = try await PostgresConnection.withSession { connection in
                    try await connection.value(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = \(name)",
                        as: Int64.self, logger: Logger(label: "test"))
                }
                let endedSessions = Int(ended ?? 0)
                #expect(endedSessions >= 1)
                // Each ended session fails at most one operation (the one that finds it closed, which then closes it),
                // however many of them the pool held and in whatever order the client notices their end.
                var failures = 0
                func untilAnswered<T>(_ operation: () async throws -> T) async throws -> T {
                    while true {
                        do {
                            return try await operation()
                        } catch let error as MSALError where error.internalCode == .cacheUnavailable {
                            failures += 1
                            guard failures <= endedSessions else { throw error }
                        }
                    }
                }
                let loaded = try await untilAnswered { try await store.load(partition) }
                #expect(loaded?.withoutExpiry == StoredTokenCachePartition(data: tokenBytes("a"), version: 1))
                #expect(
                    try await untilAnswered {
                        try await store.save(tokenBytes("b"), for: partition, expiresOn: inAnHour, expectedVersion: 1)
                    } == 2)
                #expect(failures <= endedSessions)
            }
        }

        @Test("a load on the reserved connection that passes its deadline ends in time; another connection is reserved")
        func deadline() async throws {
            let table = uniqueTableName()
            try await withStore(table: table, timeout: .milliseconds(500)) { store async throws in
                let partition = somePartition()
                _ = try await whenAvailable { try await store.load(partition) }
                let reserved = try #require(store.reserved)
                let first = try await free(reserved, store)
                try await PostgresConnection.withTableLocked(table) { _ in
                    await expectTimedOut("500 ms") { try await store.load(partition) }
                }
                try await first.closeFuture.get()
                #expect(try await free(reserved, store) !== first)
                #expect(try await whenAvailable { try await store.load(partition) } == nil)
            }
        }
    }
}

/// The store's reserved connection once it is free (leased and prepared as the store prepares it), given straight
/// back: asked again after each load through the store.
private func free(_ reserved: ReservedConnection, _ store: PostgresTokenCacheStore) async throws -> PostgresConnection {
    for _ in 0..<2_000 {
        if let connection = reserved.borrow(
            from: store.client, preparing: { try await store.prepareStatements(on: $0) })
        {
            reserved.giveBack(connection, healthy: true)
            return connection
        }
        _ = try await whenAvailable { try await store.load(somePartition()) }
    }
    throw ReservedConnectionNotLent()
}

/// Runs `body` with a pool of two connections on the suite's cluster, then stops it.
private func withPool(_ body: (PostgresClient) async throws -> Void) async throws {
    let cluster = try PostgresCluster.current
    let url = try PostgresConnectionURL(cluster.socketURL)
    let client = PostgresClient(
        configuration: try .init(url: url, timeout: .seconds(30), maximumConnections: 2, logger: Logger(label: "test")),
        backgroundLogger: Logger(label: "test"))
    let running = Task { await client.run() }
    do {
        try await body(client)
        running.cancel()
    } catch {
        running.cancel()
        throw error
    }
}

/// The reserved connection once its holder has leased it: asked again after each round trip on another connection.
private func lent(_ reserved: ReservedConnection, _ client: PostgresClient) async throws -> PostgresConnection {
    for _ in 0..<2_000 {
        if let connection = reserved.borrow(from: client, preparing: { _ in }) { return connection }
        try await client.withConnection { try await $0.drain("SELECT 1", logger: Logger(label: "test")) }
    }
    throw ReservedConnectionNotLent()
}

private struct ReservedConnectionNotLent: Error {}
