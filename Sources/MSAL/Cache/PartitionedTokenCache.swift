import Foundation
import Locking

/// A confidential client's token cache: one ``TokenCache`` per ``TokenCachePartition``, so every read
/// and write touches one partition (app tokens per client and tenant, on-behalf-of tokens per incoming
/// token, web-app users per account).
///
/// Partitions live in memory, at most ``maximumPartitionsInMemory`` of them; beyond that the least
/// recently used are dropped (and read again from the store, when there is one, on their next use).
public final class PartitionedTokenCache: Sendable {
    /// Where partitions persist; in memory only when `nil`.
    public let store: (any TokenCachePartitionStore)?
    /// How many partitions stay in memory.
    public let maximumPartitionsInMemory: Int

    private struct Resident {
        var partitions: [TokenCachePartition: (cache: TokenCache, lastUse: UInt64)] = [:]
        var uses: UInt64 = 0
    }

    private let resident = Locked(Resident())

    /// A cache kept in memory, or loaded from and saved to `store` one partition at a time.
    ///
    /// - Parameters:
    ///   - store: where partitions persist; `nil` keeps them in memory only.
    ///   - maximumPartitionsInMemory: the bound on partitions in memory (10,000 by default).
    public init(store: (any TokenCachePartitionStore)? = nil, maximumPartitionsInMemory: Int = 10_000) {
        self.store = store
        self.maximumPartitionsInMemory = max(1, maximumPartitionsInMemory)
    }

    /// The cache of one partition, made (empty, or loaded from the store on first use) when needed.
    func cache(for partition: TokenCachePartition) -> TokenCache {
        resident.withLock { resident in
            resident.uses &+= 1
            if let found = resident.partitions[partition] {
                resident.partitions[partition]!.lastUse = resident.uses
                return found.cache
            }
            let cache = TokenCache(persistence: store.map { PartitionPersistence(store: $0, partition: partition) })
            resident.partitions[partition] = (cache, resident.uses)
            if resident.partitions.count > maximumPartitionsInMemory { Self.evict(&resident, keeping: partition) }
            return cache
        }
    }

    /// How many partitions are in memory.
    public var partitionsInMemory: Int { resident.withLock { $0.partitions.count } }

    /// Drops a tenth of the partitions (at least one), least recently used first, never `kept`.
    private static func evict(_ resident: inout Resident, keeping kept: TokenCachePartition) {
        let count = max(1, resident.partitions.count / 10)
        let oldest = resident.partitions.lazy.filter { $0.key != kept }
            .sorted { $0.value.lastUse < $1.value.lastUse }
            .prefix(count)
        for (partition, _) in oldest { resident.partitions[partition] = nil }
    }
}
