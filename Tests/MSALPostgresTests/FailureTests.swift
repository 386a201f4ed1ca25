import Foundation
import InMemoryLogging
import Logging
import MSAL
import MSALPostgres
import PostgresNIO
import TestServers
import Testing

extension PostgresStoreTests {
    @Suite("a slow database and secrets")
    struct Failures {
        @Test("a statement stuck behind another session's table lock throws cacheUnavailable within the timeout")
        func slowDatabase() async throws {
            let table = uniqueTableName()
            // A store with a roomy timeout sets up and checks; only the operations meant to fail use the short one.
            try await withStore(table: table) { roomy async throws in
                try await withStore(table: table, timeout: .seconds(3)) { store async throws in
                    let partition = somePartition()
                    _ = try await roomy.save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)

                    try await PostgresConnection.withTableLocked(table) { _ in
                        await expectTimedOut("3 s") { try await store.load(partition) }
                        _ = await expectUnavailable {
                            try await store.save(
                                tokenBytes("b"), for: partition, expiresOn: inAnHour, expectedVersion: 1)
                        }
                    }
                    // The save the store gave up on may still have run when the lock went (the server's
                    // statement_timeout races the commit): either way, the row is whole and its version says which.
                    let after = try #require(try await roomy.load(partition)).withoutExpiry
                    #expect(
                        after == StoredTokenCachePartition(data: tokenBytes("a"), version: 1)
                            || after == StoredTokenCachePartition(data: tokenBytes("b"), version: 2))
                }
            }
        }

        @Test(
            "timeouts that pass while a connection is being made, leased or used end the operation; shutdown ends too",
            arguments: [1, 5, 20, 50])
        func timeoutsWhileConnecting(milliseconds: Int) async throws {
            // Each store starts with no connection, so its first operations time out at some point of making one,
            // leasing it or running the statement (a cancelled lease once waited for a connection all the same, and
            // shutdown for that lease). The suite's time limit catches a hang.
            for _ in 0..<3 {
                try await withStore(timeout: .milliseconds(milliseconds)) { store async throws in
                    for _ in 0..<2 {
                        do {
                            _ = try await store.load(somePartition())
                        } catch let error as MSALError {
                            #expect(error.internalCode == .cacheUnavailable)
                        }
                    }
                }
            }
        }

        @Test("neither the password nor token bytes appear in descriptions, errors or logs, even at trace level")
        func secretsStayOut() async throws {
            let cluster = try PostgresCluster.current
            let lines = InMemoryLogHandler.everyLevel()
            var logger = Logger(label: "msal.postgres.test") { _ in lines }
            logger.logLevel = .trace
            let secretToken = "tok-\(UUID().uuidString)"
            try await withStore(logger: logger) { store async throws in
                for text in [
                    store.description, String(reflecting: store), "\(store.url)", String(reflecting: store.url),
                ] {
                    #expect(!text.contains(cluster.password), "\(text)")
                }
                var dumped = ""
                dump(store.url, to: &dumped)
                #expect(!dumped.contains(cluster.password))
                #expect(store.description.contains(":***@"))

                let partition = somePartition()
                _ = try await store.save(
                    tokenBytes(secretToken), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                #expect(try await store.load(partition)?.data == tokenBytes(secretToken))
                #expect(!lines.all.contains(secretToken))
            }
            // A wrong password, and a port nothing listens on: the errors and logs name neither secret.
            let wrong = cluster.socketURL.replacingOccurrences(of: cluster.password, with: "wrong-\(cluster.password)")
            for url in [
                wrong, cluster.tcpURL("sslmode=disable").replacingOccurrences(of: ":\(cluster.port)/", with: ":1/"),
            ] {
                try await withStore(url: url, timeout: .milliseconds(500), logger: logger) { store async throws in
                    let error = await expectUnavailable {
                        try await store.save(
                            tokenBytes(secretToken), for: somePartition(), expiresOn: inAnHour, expectedVersion: nil)
                    }
                    let text =
                        "\(String(describing: error)) \(String(reflecting: error)) \(error?.errorUserInfo ?? [:])"
                    #expect(!text.contains(cluster.password), "\(text)")
                    #expect(!text.contains(secretToken))
                }
            }
            #expect(!lines.all.contains(cluster.password))
            #expect(!lines.all.contains(secretToken))
        }
    }
}

@Suite("PostgreSQL token cache store: outages", .timeLimit(.minutes(5)))
struct PostgresOutageTests {
    @Test("with PostgreSQL stopped, operations throw cacheUnavailable within the timeout; after a restart they work")
    func stoppedAndRestarted() async throws {
        try await PostgresCluster.with { cluster in
            let store = try PostgresTokenCacheStore(
                url: cluster.socketURL, tableName: uniqueTableName(), operationTimeout: .seconds(1))
            let partition = somePartition()
            // Connected and the table made first: a save that timed out may still have been applied.
            _ = try await whenAvailable { try await store.load(partition) }
            let saved = try await whenAvailable {
                try await store.save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
            }
            #expect(saved == 1 || saved == nil)

            try await cluster.stop()
            // Each operation ends with cacheUnavailable (the suite's time limit catches a hang).
            for _ in 0..<3 {
                _ = await expectUnavailable { try await store.load(partition) }
            }
            _ = await expectUnavailable {
                try await store.save(tokenBytes("b"), for: partition, expiresOn: inAnHour, expectedVersion: 1)
            }
            _ = await expectUnavailable { try await store.delete(partition) }
            // The refresh lock cannot be had: the body runs anyway.
            #expect(try await store.withRefreshLock(partition, timeout: .seconds(10)) { 1 } == 1)

            try await cluster.start()
            // The pool reconnects with a growing backoff, and on a busy machine an operation may need longer than the
            // short timeout, so each is asked until it is answered; that the first one reaching the server succeeds is
            // `firstOperationAfterRestart`'s to show, with a timeout no machine's speed decides.
            let loaded = try await whenAvailable(attempts: 120) { try await store.load(partition) }
            #expect(loaded?.withoutExpiry == StoredTokenCachePartition(data: tokenBytes("a"), version: 1))
            let version = try await whenAvailable(attempts: 120) {
                try await store.save(tokenBytes("c"), for: partition, expiresOn: inAnHour, expectedVersion: 1)
            }
            // nil when an earlier attempt, given up on by the store, was applied by the server all the same.
            #expect(version == 2 || version == nil)
            #expect(try await whenAvailable(attempts: 120) { try await store.load(partition) }?.data == tokenBytes("c"))
            await store.shutdown()
        }
    }

    @Test(
        "after PostgreSQL restarts, the first operation succeeds, whatever the operations abandoned during the outage were doing"
    )
    func firstOperationAfterRestart() async throws {
        try await PostgresCluster.with { cluster in
            // A timeout no machine's speed reaches: every operation here is expected to succeed.
            let store = try PostgresTokenCacheStore(
                url: cluster.socketURL, tableName: uniqueTableName(), operationTimeout: .seconds(60))
            let partition = somePartition()
            #expect(
                try await store.save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil) == 1)
            // Several connections open, the reserved one among them, when the server stops.
            try await Self.concurrentLoads(store, partition, expecting: tokenBytes("a"))

            try await cluster.stop()
            // Operations started while it is down and abandoned: their leases, queued or handed a connection as the
            // server comes back, are given up without a statement written to a connection the pool may lease again.
            let abandoned = (0..<12).map { index in
                Task {
                    if index.isMultiple(of: 3) {
                        _ = try await store.save(
                            tokenBytes("x"), for: partition, expiresOn: inAnHour, expectedVersion: 1)
                    } else {
                        _ = try await store.load(partition)
                    }
                }
            }
            for task in abandoned { task.cancel() }
            for task in abandoned {
                await #expect(throws: CancellationError.self) { try await task.value }
            }

            try await cluster.start()
            #expect(
                try await store.load(partition)?.withoutExpiry
                    == StoredTokenCachePartition(data: tokenBytes("a"), version: 1))
            #expect(try await store.save(tokenBytes("b"), for: partition, expiresOn: inAnHour, expectedVersion: 1) == 2)
            try await Self.concurrentLoads(store, partition, expecting: tokenBytes("b"))
            await store.shutdown()
        }
    }

    /// Eight loads at once, each of which must return `data`.
    private static func concurrentLoads(
        _ store: PostgresTokenCacheStore, _ partition: TokenCachePartition, expecting data: Data
    ) async throws {
        try await withThrowingTaskGroup(of: Data?.self) { group in
            for _ in 0..<8 { group.addTask { try await store.load(partition)?.data } }
            for try await loaded in group { #expect(loaded == data) }
        }
    }
}
