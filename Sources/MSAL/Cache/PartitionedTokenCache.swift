import Foundation
import Locking
import Logging

/// A confidential client's token cache in two levels: partitions in this process's memory (L1) in front
/// of an optional shared ``TokenCachePartitionStore`` (L2), one ``TokenCache`` per ``TokenCachePartition``.
///
/// - A lookup that L1 answers touches nothing else.
/// - A partition not in memory is read from the store; a change is written to both, as a conditional save:
///   when another process saved the partition first, its version is read and the change applied again.
/// - L1 holds at most ``maximumBytesInMemory`` bytes of partitions (their unified cache JSON); the least
///   recently used go first, and none is kept past its expiry.
/// - When the store is unreachable, tokens come from memory and the identity platform; the outage is logged
///   once, and writes resume when the store is back.
/// - With ``appTokens``, app-token partitions (client credentials, managed identities) are not partitions of
///   their own but entries of that cache, such as a public client's file, as Azure CLI keeps a service
///   principal's tokens beside its users'.
public final class PartitionedTokenCache: Sendable {
    /// The second level, shared by processes; `nil` keeps partitions in memory only.
    public let store: (any TokenCachePartitionStore)?
    /// Where app tokens go instead of partitions of their own, when set: a ``TokenCache`` (and its persistence)
    /// that may hold other clients' and users' tokens too. Entries are told apart by client, tenant and account,
    /// as in MSAL Python's file; on-behalf-of and users' partitions, which it would not tell apart, stay partitions.
    public let appTokens: TokenCache?
    /// The bound on the bytes of partitions kept in memory.
    public var maximumBytesInMemory: Int { resident.maximumBytes }
    /// How long a refresh waits for another process refreshing the same partition before it refreshes itself.
    public let refreshLockWait: Duration
    /// After the store fails, how long it is left alone before it is asked again.
    public let storeRetryInterval: Duration

    private let resident: ResidentPartitions
    private let clock: any TimeSource
    private let outage: StoreOutage
    /// A configuration's untouched default: an app replaces it with one on the app's clock.
    let isConfigurationDefault: Bool

    /// A cache in memory, or in front of `store`.
    ///
    /// - Parameters:
    ///   - store: the shared second level; `nil` keeps partitions in memory only.
    ///   - appTokens: the cache app tokens go to instead (see ``appTokens``); `nil` partitions them like the rest.
    ///   - maximumBytesInMemory: the bound on partitions in memory (64 MiB by default).
    ///   - refreshLockWait: how long a refresh waits for another process's (2 s by default).
    ///   - storeRetryInterval: after the store fails, how long it is left alone (5 s by default).
    ///   - logger: where store outages are reported (without tokens or keys).
    ///   - clock: decides which partitions have expired.
    public init(
        store: (any TokenCachePartitionStore)? = nil, appTokens: TokenCache? = nil,
        maximumBytesInMemory: Int = 64 << 20, refreshLockWait: Duration = .seconds(2),
        storeRetryInterval: Duration = .seconds(5),
        logger: Logger = Logger(label: "MSAL", factory: { _ in SwiftLogNoOpLogHandler() }),
        clock: any TimeSource = SystemTimeSource()
    ) {
        self.store = store
        self.appTokens = appTokens
        resident = ResidentPartitions(maximumBytes: max(1, maximumBytesInMemory))
        self.refreshLockWait = refreshLockWait
        self.storeRetryInterval = storeRetryInterval
        self.clock = clock
        outage = StoreOutage(logger: logger, clock: clock, retryInterval: storeRetryInterval)
        isConfigurationDefault = false
    }

    /// A configuration's default: in memory, on the system clock until an app made from the configuration
    /// replaces it with the same cache on the configured clock.
    init(configurationDefault: ()) {
        store = nil
        appTokens = nil
        resident = ResidentPartitions(maximumBytes: 64 << 20)
        refreshLockWait = .seconds(2)
        storeRetryInterval = .seconds(5)
        clock = SystemTimeSource()
        outage = StoreOutage(
            logger: Logger(label: "MSAL", factory: { _ in SwiftLogNoOpLogHandler() }), clock: clock,
            retryInterval: .seconds(5))
        isConfigurationDefault = true
    }

    /// This cache, or, when it is a configuration's untouched default, an empty one on `clock`.
    func followingClock(_ clock: any TimeSource) -> PartitionedTokenCache {
        isConfigurationDefault ? PartitionedTokenCache(clock: clock) : self
    }

    /// How many partitions are in memory.
    public var partitionsInMemory: Int { resident.count }

    /// How many bytes of partitions are in memory.
    public var bytesInMemory: Int { resident.bytes }

    /// The first-level cache of one partition, made when needed (empty, or loaded from the store on first use).
    func cache(for partition: TokenCachePartition) -> TokenCache {
        if partition.kind == .appTokens, let appTokens { return appTokens }
        return slot(for: partition).cache
    }

    /// Runs `refresh` for a partition while holding the store's refresh lock for it, after reading what
    /// another process may have stored meanwhile: of many processes refreshing one partition at once, one
    /// asks the identity platform and the others find its token. App tokens in ``appTokens`` have no such lock.
    func whileRefreshing<T: Sendable>(_ partition: TokenCachePartition, _ refresh: () async throws -> T) async throws
        -> T
    {
        if partition.kind == .appTokens, appTokens != nil { return try await refresh() }
        let link = slot(for: partition).link
        guard let store, !outage.isWaiting else { return try await refresh() }
        return try await store.withRefreshLock(partition, timeout: refreshLockWait) {
            await link.refresh()
            return try await refresh()
        }
    }

    private func slot(for partition: TokenCachePartition) -> ResidentPartitions.Slot {
        resident.slot(for: partition, now: clock.now()) { measured in
            PartitionLink(store: store, partition: partition, outage: outage, clock: clock, measured: measured)
        }
    }
}
