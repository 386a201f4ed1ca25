import Foundation

/// A partition's bytes as a store holds them, and the version a conditional save names.
public struct StoredTokenCachePartition: Sendable, Equatable {
    /// MSAL's unified cache JSON of the partition (sealed, when the store encrypts).
    public var data: Data
    /// Changes on every save; a save names the version it replaces.
    public var version: Int64
    /// The expiry the partition was saved with, when the store keeps it: the cache then need not read it from
    /// the data.
    public var expiresOn: Date?

    /// A stored partition.
    public init(data: Data, version: Int64, expiresOn: Date? = nil) {
        self.data = data
        self.version = version
        self.expiresOn = expiresOn
    }
}

/// The second level of a partitioned token cache, shared by a fleet of processes (a database, a
/// distributed cache): each call names one partition, so the store reads and writes only it.
///
/// Saves are optimistic: a save names the version it replaces and fails, as a conflict, when another
/// writer saved first; the cache then reads the partition again, applies its change again and retries.
public protocol TokenCachePartitionStore: Sendable {
    /// The partition, or `nil` when none is stored (or it has expired).
    ///
    /// - Throws: when the store cannot be reached or read.
    nonisolated(nonsending) func load(_ partition: TokenCachePartition) async throws -> StoredTokenCachePartition?

    /// Saves the partition if its stored version is still `expectedVersion` (`nil`: none is stored yet).
    ///
    /// - Parameters:
    ///   - data: the partition's bytes.
    ///   - partition: the partition.
    ///   - expiresOn: when every token in it has expired; the partition may be purged after.
    ///   - expectedVersion: the version the save replaces; `nil` when none was stored (or it expired).
    /// - Returns: the new version, or `nil` when another writer saved first (a conflict).
    /// - Throws: when the store cannot be reached or written.
    nonisolated(nonsending) func save(
        _ data: Data, for partition: TokenCachePartition, expiresOn: Date, expectedVersion: Int64?
    ) async throws -> Int64?

    /// Deletes the partition.
    nonisolated(nonsending) func delete(_ partition: TokenCachePartition) async throws

    /// Deletes the partitions that expired before `date`.
    ///
    /// - Returns: how many were deleted.
    nonisolated(nonsending) func purgeExpired(before date: Date) async throws -> Int

    /// Runs `body` while this process holds the partition's refresh lock, so that of many processes
    /// refreshing one partition at once, one asks the identity platform and the others read its result.
    /// When the lock is not had within `timeout`, runs `body` anyway.
    nonisolated(nonsending) func withRefreshLock<T: Sendable>(
        _ partition: TokenCachePartition, timeout: Duration, _ body: () async throws -> T
    ) async throws -> T
}

extension TokenCachePartitionStore {
    /// No lock across processes: `body` runs at once.
    public nonisolated(nonsending) func withRefreshLock<T: Sendable>(
        _ partition: TokenCachePartition, timeout: Duration, _ body: () async throws -> T
    ) async throws -> T {
        try await body()
    }
}
