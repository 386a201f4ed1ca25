import Foundation
import Locking
import Logging

/// One partition of a ``PartitionedTokenCache``, seen by its first-level ``TokenCache`` as its persistence.
///
/// Lookups never reach the store: ``version()`` is a number this link changes only when it fetched newer
/// bytes (after a conflict, or before a refresh across processes). A save names the store version it
/// replaces; when another process saved first, the link fetches that version and reports a conflict, and
/// the cache applies its change again. When the store is unreachable the cache goes on in memory: the
/// change is kept, the outage logged once, the store left alone until ``StoreOutage`` says to try it again,
/// and the next save after it writes the whole partition again.
final class PartitionLink: TokenCachePersistence {
    private struct State {
        var generation: Int64 = 0 {
            didSet { version = StorageVersion([generation]) }
        }
        /// The generation as the cache compares it, made once per generation rather than on every lookup.
        var version = StorageVersion([0])
        /// The store's version of the bytes the cache holds; `nil` when the store has none.
        var storeVersion: Int64?
        /// Bytes fetched ahead of the cache's next load (after a conflict or a refresh).
        var fetched: Data?
    }

    let store: (any TokenCachePartitionStore)?
    let partition: TokenCachePartition
    private let outage: StoreOutage
    private let clock: any TimeSource
    /// Told the size and expiry of the partition's bytes after each load and save.
    private let measured: @Sendable (TokenCachePartition, Int, Date) -> Void
    private let state = Locked(State())

    init(
        store: (any TokenCachePartitionStore)?, partition: TokenCachePartition, outage: StoreOutage,
        clock: any TimeSource, measured: @escaping @Sendable (TokenCachePartition, Int, Date) -> Void
    ) {
        self.store = store
        self.partition = partition
        self.outage = outage
        self.clock = clock
        self.measured = measured
    }

    nonisolated(nonsending) func version() async throws -> StorageVersion? {
        state.withLock { $0.version }
    }

    nonisolated(nonsending) func load() async throws -> Data? {
        if let fetched = state.withLock({ state in
            defer { state.fetched = nil }
            return state.fetched
        }) {
            return fetched
        }
        guard let store, !outage.isWaiting else { return nil }
        do {
            let stored = try await store.load(partition)
            outage.ended()
            state.withLock { $0.storeVersion = stored?.version }
            if let stored {
                let expiresOn = stored.expiresOn ?? PartitionExpiry.of(stored.data, now: clock.now())
                measured(partition, stored.data.count, expiresOn)
            }
            return stored?.data
        } catch {
            outage.began(error, partition: partition)
            return nil  // start from memory; a later save meets the stored version and merges with it
        }
    }

    nonisolated(nonsending) func save(_ data: Data) async throws {
        let expiresOn = PartitionExpiry.of(data, now: clock.now())
        measured(partition, data.count, expiresOn)
        guard let store, !outage.isWaiting else { return }  // kept in memory; the next save writes it all
        let expected = state.withLock { $0.storeVersion }
        let saved: Int64?
        do {
            saved = try await store.save(data, for: partition, expiresOn: expiresOn, expectedVersion: expected)
        } catch {
            outage.began(error, partition: partition)
            return  // kept in memory; the next save writes the whole partition
        }
        outage.ended()
        if let saved {
            state.withLock { $0.storeVersion = saved }
            return
        }
        try await fetchLatest()
        throw MSALError.internal(.cacheConflict, "Another process saved the token cache partition first.")
    }

    /// Fetches the stored partition when it is newer than the cache's, so the cache's next lookup reads it.
    func refresh() async {
        guard store != nil, !outage.isWaiting else { return }
        do {
            try await fetchLatest()
        } catch {
            outage.began(error, partition: partition)
        }
    }

    private func fetchLatest() async throws {
        guard let store else { return }
        let latest = try await store.load(partition)
        outage.ended()
        state.withLock { state in
            guard latest?.version != state.storeVersion else { return }
            state.storeVersion = latest?.version
            state.fetched = latest?.data ?? Data("{}".utf8)
            state.generation += 1
        }
    }
}
