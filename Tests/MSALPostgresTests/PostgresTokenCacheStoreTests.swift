import Foundation
import MSAL
import MSALPostgres
import TestServers
import Testing

/// The store against a real PostgreSQL: one throwaway cluster for all the nested suites, each test on a table of
/// its own.
@Suite("PostgreSQL token cache store", .sharedPostgresCluster, .timeLimit(.minutes(5)))
struct PostgresStoreTests {}

extension PostgresStoreTests {
    @Suite("the store's contract: versions, conflicts, expiry")
    struct Contract {
        @Test("a saved partition loads back with its version and expiry; the table is made on first use")
        func roundTrip() async throws {
            try await withStore { store async throws in
                let partition = somePartition()
                #expect(try await store.load(partition) == nil)
                let version = try await store.save(
                    tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                #expect(version == 1)
                let loaded = try #require(try await store.load(partition))
                #expect(loaded.withoutExpiry == StoredTokenCachePartition(data: tokenBytes("a"), version: 1))
                // timestamptz keeps microseconds.
                #expect(abs(try #require(loaded.expiresOn).timeIntervalSince(inAnHour)) < 0.001)
                #expect(try await store.load(somePartition()) == nil)
            }
        }

        @Test("each save names the version it replaces and gets the next")
        func versionsIncrease() async throws {
            try await withStore { store async throws in
                let partition = somePartition()
                var version = try #require(
                    try await store.save(tokenBytes("0"), for: partition, expiresOn: inAnHour, expectedVersion: nil))
                for step in 1...3 {
                    let next = try #require(
                        try await store.save(
                            tokenBytes("\(step)"), for: partition, expiresOn: inAnHour, expectedVersion: version))
                    #expect(next == version + 1)
                    version = next
                }
                #expect(
                    try await store.load(partition)?.withoutExpiry
                        == StoredTokenCachePartition(data: tokenBytes("3"), version: 4))
            }
        }

        @Test("a save naming a stale version is a conflict and changes nothing")
        func staleVersionConflicts() async throws {
            try await withStore { store async throws in
                let partition = somePartition()
                _ = try await store.save(tokenBytes("1"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                #expect(
                    try await store.save(tokenBytes("2"), for: partition, expiresOn: inAnHour, expectedVersion: 1) == 2)
                #expect(
                    try await store.save(tokenBytes("stale"), for: partition, expiresOn: inAnHour, expectedVersion: 1)
                        == nil)
                #expect(
                    try await store.save(tokenBytes("future"), for: partition, expiresOn: inAnHour, expectedVersion: 7)
                        == nil)
                #expect(
                    try await store.load(partition)?.withoutExpiry
                        == StoredTokenCachePartition(data: tokenBytes("2"), version: 2))
            }
        }

        @Test("insert-if-absent conflicts with a live row; a version for an absent row conflicts")
        func insertIfAbsentConflicts() async throws {
            try await withStore { store async throws in
                let partition = somePartition()
                #expect(
                    try await store.save(tokenBytes("x"), for: partition, expiresOn: inAnHour, expectedVersion: 1)
                        == nil)
                #expect(try await store.load(partition) == nil)
                #expect(
                    try await store.save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                        == 1)
                #expect(
                    try await store.save(tokenBytes("b"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                        == nil)
                #expect(try await store.load(partition)?.data == tokenBytes("a"))
            }
        }

        @Test("an expired row is invisible, counts as absent, is replaced by an insert, and is purged")
        func expiredRows() async throws {
            try await withStore { store async throws in
                let expired = somePartition()
                let past = Date().addingTimeInterval(-60)
                #expect(
                    try await store.save(tokenBytes("old"), for: expired, expiresOn: past, expectedVersion: nil) == 1)
                #expect(try await store.load(expired) == nil)
                // Its version no longer counts: only an insert replaces it, with the next version.
                #expect(
                    try await store.save(tokenBytes("late"), for: expired, expiresOn: inAnHour, expectedVersion: 1)
                        == nil)
                #expect(
                    try await store.save(tokenBytes("new"), for: expired, expiresOn: inAnHour, expectedVersion: nil)
                        == 2)
                #expect(
                    try await store.load(expired)?.withoutExpiry
                        == StoredTokenCachePartition(data: tokenBytes("new"), version: 2))

                let live = somePartition()
                _ = try await store.save(tokenBytes("live"), for: live, expiresOn: inAnHour, expectedVersion: nil)
                for _ in 0..<3 {
                    _ = try await store.save(
                        tokenBytes("gone"), for: somePartition(), expiresOn: past, expectedVersion: nil)
                }
                #expect(try await store.purgeExpired(before: Date()) == 3)
                #expect(try await store.purgeExpired(before: Date()) == 0)
                // A date past every expiry purges the live ones too.
                #expect(try await store.purgeExpired(before: inAnHour.addingTimeInterval(1)) == 2)
                #expect(try await store.load(live) == nil)
            }
        }

        @Test("delete removes the row; deleting an absent one is fine; the partition can be made again")
        func delete() async throws {
            try await withStore { store async throws in
                let partition = somePartition()
                _ = try await store.save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                try await store.delete(partition)
                #expect(try await store.load(partition) == nil)
                try await store.delete(partition)
                #expect(
                    try await store.save(tokenBytes("b"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                        == 1)
            }
        }

        @Test("of savers racing over one version, in two stores, exactly one wins")
        func concurrentSaversOneWins() async throws {
            try await withStores(2) { stores async throws in
                let partition = somePartition()
                _ = try await stores[0].save(tokenBytes("0"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                for round in 1...5 {
                    let current = try #require(try await stores[1].load(partition)).version
                    let results = try await withThrowingTaskGroup(of: Int64?.self) { group in
                        for saver in 0..<6 {
                            group.addTask {
                                try await stores[saver % 2].save(
                                    tokenBytes("\(round)-\(saver)"), for: partition, expiresOn: inAnHour,
                                    expectedVersion: current)
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(results.compactMap { $0 } == [current + 1], "round \(round): \(results)")
                }
                // Inserting racers on an absent partition: one row, version 1.
                let fresh = somePartition()
                let inserts = try await withThrowingTaskGroup(of: Int64?.self) { group in
                    for saver in 0..<6 {
                        group.addTask {
                            try await stores[saver % 2].save(
                                tokenBytes("\(saver)"), for: fresh, expiresOn: inAnHour, expectedVersion: nil)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(inserts.compactMap { $0 } == [1])
            }
        }

        @Test("two stores on one table see each other's saves; a schema-qualified table works")
        func sharedTableAndSchema() async throws {
            try await withStores(2) { stores async throws in
                let partition = somePartition()
                _ = try await stores[0].save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                #expect(try await stores[1].load(partition)?.data == tokenBytes("a"))
            }
            try await withStore(table: "public.\(uniqueTableName())") { store async throws in
                let partition = somePartition()
                #expect(
                    try await store.save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                        == 1)
                #expect(try await store.load(partition)?.version == 1)
            }
        }

        @Test("large partitions and every byte value survive the round trip")
        func largeBinaryData() async throws {
            try await withStore { store async throws in
                let partition = somePartition()
                let data = Data((0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
                _ = try await store.save(data, for: partition, expiresOn: inAnHour, expectedVersion: nil)
                #expect(try await store.load(partition)?.data == data)
            }
        }

        @Test("after shutdown, operations throw cacheUnavailable at once and the refresh lock runs its body")
        func afterShutdown() async throws {
            let cluster = try PostgresCluster.current
            let store = try PostgresTokenCacheStore(
                url: cluster.socketURL, tableName: uniqueTableName(), operationTimeout: .seconds(30))
            let partition = somePartition()
            _ = try await store.save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
            await store.shutdown()
            let error = await expectUnavailable { try await store.load(partition) }
            #expect(error?.message.contains("shut down") == true)
            #expect(try await store.withRefreshLock(partition, timeout: .seconds(5)) { 42 } == 42)
        }
    }
}
