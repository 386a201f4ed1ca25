import Foundation
import Locking
import Logging

/// One partition of a ``PartitionedTokenCache``, seen by its first-level ``TokenCache`` as its persistence.
///
/// Lookups never reach the store: ``version()`` is a number this link changes only when it fetched newer
/// bytes (after a conflict, or before a refresh across processes). A save names the store version it
/// replaces; when another process saved first, the link fetches that version and reports a conflict, and
/// the cache applies its change again. When the store is unreachable the cache goes on in memory: the
/// change is kept, the outage logged once, and the next save after it writes the whole partition again.
final class PartitionLink: TokenCachePersistence {
    private struct State {
        var generation: Int64 = 0
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
        StorageVersion([state.withLock { $0.generation }])
    }

    nonisolated(nonsending) func load() async throws -> Data? {
        if let fetched = state.withLock({ state in
            defer { state.fetched = nil }
            return state.fetched
        }) {
            return fetched
        }
        guard let store else { return nil }
        do {
            let stored = try await store.load(partition)
            outage.ended()
            state.withLock { $0.storeVersion = stored?.version }
            if let stored { measured(partition, stored.data.count, PartitionExpiry.of(stored.data, now: clock.now())) }
            return stored?.data
        } catch {
            outage.began(error, partition: partition)
            return nil  // start from memory; a later save meets the stored version and merges with it
        }
    }

    nonisolated(nonsending) func save(_ data: Data) async throws {
        let expiresOn = PartitionExpiry.of(data, now: clock.now())
        measured(partition, data.count, expiresOn)
        guard let store else { return }
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
        guard store != nil else { return }
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

/// Logs a store outage once when it begins and once when it ends, never with a token or partition key.
final class StoreOutage: Sendable {
    private let logger: Logger
    private let down = Locked(false)

    init(logger: Logger) { self.logger = logger }

    func began(_ error: any Error, partition: TokenCachePartition) {
        guard
            down.withLock({ down in
                defer { down = true }
                return !down
            })
        else { return }
        let reason =
            (error as? MSALError).map { "\($0.code) \($0.internalCode.map { "\($0)" } ?? "")" } ?? "\(type(of: error))"
        logger.warning(
            "token cache store unavailable; tokens come from memory and the identity platform until it is back",
            metadata: ["partition_kind": "\(partition.kind.rawValue)", "error": "\(reason)"])
    }

    func ended() {
        guard
            down.withLock({ down in
                defer { down = false }
                return down
            })
        else { return }
        logger.notice("token cache store is back; changes are saved to it again")
    }
}
