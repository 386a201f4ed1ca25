import Foundation
import MSAL
import MSALPostgres
import TestServers
import Testing

extension PostgresStoreTests {
    @Suite("the refresh lock: a PostgreSQL advisory lock per partition")
    struct RefreshLock {
        @Test("bodies on one partition, from two stores, never overlap")
        func bodiesDoNotOverlap() async throws {
            try await withStores(2) { stores async throws in
                let partition = somePartition()
                let log = EventLog()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            // A wait long enough for a machine busy with the whole test suite: past it a waiter runs
                            // its body without the lock, by design, and this test would see an overlap.
                            try await stores[worker % 2].withRefreshLock(partition, timeout: .seconds(180)) {
                                log.record("start \(worker)")
                                // Suspends several times, so another body could interleave here if the lock let it.
                                for _ in 0..<10 { await Task.yield() }
                                log.record("end \(worker)")
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let names = log.names
                #expect(names.count == 8)
                // Each start is followed by its own end: no body began while another ran.
                for index in stride(from: 0, to: names.count, by: 2) {
                    let worker = names[index].dropFirst("start ".count)
                    #expect(names[index].hasPrefix("start "), "\(names)")
                    #expect(names[index + 1] == "end \(worker)", "\(names)")
                }
            }
        }

        @Test("a waiter whose timeout passes runs its body anyway, while the holder's still runs")
        func timeoutRunsBodyAnyway() async throws {
            try await withStores(2) { stores async throws in
                let partition = somePartition()
                let log = EventLog()
                let (entered, enteredSignal) = AsyncStream<Void>.makeStream()
                let (release, releaseSignal) = AsyncStream<Void>.makeStream()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await stores[0].withRefreshLock(partition, timeout: .seconds(10)) {
                            log.record("holder start")
                            enteredSignal.yield()
                            for await _ in release {}
                            log.record("holder end")
                        }
                    }
                    for await _ in entered { break }
                    let value = try await stores[1].withRefreshLock(partition, timeout: .milliseconds(50)) {
                        log.record("waiter ran")
                        return 7
                    }
                    #expect(value == 7)
                    releaseSignal.finish()
                    try await group.waitForAll()
                }
                #expect(log.names == ["holder start", "waiter ran", "holder end"])
            }
        }

        @Test("the lock is released when the body throws, and other partitions are never blocked")
        func releasedAfterThrowAndPerPartition() async throws {
            try await withStores(2) { stores async throws in
                let partition = somePartition()
                struct Failure: Error {}
                await #expect(throws: Failure.self) {
                    try await stores[0].withRefreshLock(partition, timeout: .seconds(5)) { throw Failure() }
                }
                // Taken again after the throw (held, it would only be passed by after the timeout).
                #expect(try await stores[1].withRefreshLock(partition, timeout: .seconds(20)) { 1 } == 1)

                let (entered, enteredSignal) = AsyncStream<Void>.makeStream()
                let (release, releaseSignal) = AsyncStream<Void>.makeStream()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await stores[0].withRefreshLock(partition, timeout: .seconds(10)) {
                            enteredSignal.yield()
                            for await _ in release {}
                        }
                    }
                    for await _ in entered { break }
                    #expect(try await stores[1].withRefreshLock(somePartition(), timeout: .seconds(20)) { 2 } == 2)
                    releaseSignal.finish()
                    try await group.waitForAll()
                }
            }
        }

        @Test("more refreshes at once than the pool has connections: each body's loads and saves use its lock's")
        func bodiesUseTheLockConnection() async throws {
            try await withStore(timeout: .seconds(10), maximumConnections: 2) { store async throws in
                let partitions = (0..<8).map { _ in somePartition() }
                // With both connections holding locks, a body that needed a second connection would wait out the
                // operation timeout and fail with cacheUnavailable.
                let versions = try await withThrowingTaskGroup(of: Int64?.self) { group in
                    for (index, partition) in partitions.enumerated() {
                        group.addTask {
                            try await store.withRefreshLock(partition, timeout: .seconds(30)) {
                                _ = try await store.load(partition)
                                return try await store.save(
                                    tokenBytes("\(index)"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                            }
                        }
                    }
                    return try await group.reduce(into: [Int64?]()) { $0.append($1) }
                }
                #expect(versions == Array(repeating: 1, count: 8))
                for (index, partition) in partitions.enumerated() {
                    #expect(try await store.load(partition)?.data == tokenBytes("\(index)"))
                }
            }
        }

        @Test("the body can use the store while it holds the lock; a cancelled holder frees the lock")
        func bodyUsesStoreAndCancellation() async throws {
            try await withStores(2) { stores async throws in
                let partition = somePartition()
                let version = try await stores[0].withRefreshLock(partition, timeout: .seconds(5)) {
                    try await stores[0].save(tokenBytes("a"), for: partition, expiresOn: inAnHour, expectedVersion: nil)
                }
                #expect(version == 1)

                let (entered, enteredSignal) = AsyncStream<Void>.makeStream()
                let holder = Task {
                    try await stores[0].withRefreshLock(partition, timeout: .seconds(5)) {
                        enteredSignal.yield()
                        // Waits until cancelled: a stream nobody finishes ends when its task is cancelled.
                        let (never, _) = AsyncStream<Void>.makeStream()
                        for await _ in never {}
                        try Task.checkCancellation()
                    }
                }
                for await _ in entered { break }
                holder.cancel()
                _ = await holder.result
                #expect(try await stores[1].withRefreshLock(partition, timeout: .seconds(20)) { 3 } == 3)
            }
        }
    }
}
