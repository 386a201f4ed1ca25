import Foundation
import Locking

/// A ``TokenCachePartitionStore`` in this process's memory: the store's contract (versions, conflicts,
/// expiry) without a server, for tests and for several caches of one process.
public final class InMemoryTokenCachePartitionStore: TokenCachePartitionStore {
    private struct Row {
        var data: Data
        var version: Int64
        var expiresOn: Date
    }

    private let rows = Locked<[String: Row]>([:])
    private let clock: any TimeSource

    /// An empty store; `clock` decides what has expired.
    public init(clock: any TimeSource = SystemTimeSource()) {
        self.clock = clock
    }

    /// The partition, unless none is stored or it has expired.
    public nonisolated(nonsending) func load(_ partition: TokenCachePartition) async throws
        -> StoredTokenCachePartition?
    {
        let now = clock.now()
        return rows.withLock { rows in
            guard let row = rows[partition.key], row.expiresOn > now else { return nil }
            return StoredTokenCachePartition(data: row.data, version: row.version, expiresOn: row.expiresOn)
        }
    }

    /// Saves when the stored version is `expectedVersion` (an expired row counts as none).
    public nonisolated(nonsending) func save(
        _ data: Data, for partition: TokenCachePartition, expiresOn: Date, expectedVersion: Int64?
    ) async throws -> Int64? {
        let now = clock.now()
        return rows.withLock { rows in
            let current = rows[partition.key].flatMap { $0.expiresOn > now ? $0.version : nil }
            guard current == expectedVersion else { return nil }
            let version = (rows[partition.key]?.version ?? 0) + 1
            rows[partition.key] = Row(data: data, version: version, expiresOn: expiresOn)
            return version
        }
    }

    /// Forgets the partition.
    public nonisolated(nonsending) func delete(_ partition: TokenCachePartition) async throws {
        rows.withLock { $0[partition.key] = nil }
    }

    /// Forgets the partitions that expired before `date`.
    public nonisolated(nonsending) func purgeExpired(before date: Date) async throws -> Int {
        rows.withLock { rows in
            let expired = rows.filter { $0.value.expiresOn < date }.map(\.key)
            for key in expired { rows[key] = nil }
            return expired.count
        }
    }
}
