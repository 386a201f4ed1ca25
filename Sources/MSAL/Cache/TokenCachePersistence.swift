import Foundation

/// Where a token cache's bytes live between runs (a file, a keyring, a database).
///
/// The cache reads through ``load()`` when ``version()`` says the stored bytes changed, and changes
/// them under ``lock()``: reload if changed, apply, ``save(_:)``. Storage that other processes share
/// implements all three; the defaults suit storage only this process uses. The requirements run on
/// the caller's executor (`nonisolated(nonsending)`), so a change holds the lock without hopping
/// between threads: a busy thread pool cannot stretch the time a peer waits for it.
public protocol TokenCachePersistence: Sendable {
    /// The stored bytes, or `nil` when nothing is stored yet.
    ///
    /// - Throws: when the storage cannot be read.
    nonisolated(nonsending) func load() async throws -> Data?

    /// Replaces the stored bytes.
    ///
    /// - Throws: when the storage cannot be written.
    nonisolated(nonsending) func save(_ data: Data) async throws

    /// A cheap fingerprint of the stored bytes (e.g. a file's inode, size and modification time):
    /// the cache reloads when it differs from the one seen at the last load or save. `nil` means
    /// "only this process writes here", and the cache loads once.
    nonisolated(nonsending) func version() async throws -> StorageVersion?

    /// Excludes other processes (and other caches on the same storage) until the lock is released.
    ///
    /// - Returns: `nil` when the storage needs no lock.
    /// - Throws: ``MSALError`` `cacheLocked` when the wait is over, `cacheUnavailable` when the lock cannot be made.
    nonisolated(nonsending) func lock() async throws -> (any StorageLock)?

    /// Moves unreadable bytes out of the way, keeping a copy, so the cache can start empty.
    ///
    /// - Parameter reason: why the bytes could not be read, for the user.
    /// - Returns: where the copy is, if one was kept.
    nonisolated(nonsending) func setAside(reason: String) async throws -> String?
}

/// A fingerprint of stored bytes; equal fingerprints mean unchanged bytes.
public struct StorageVersion: Sendable, Hashable {
    /// The numbers that identify the stored bytes' state, such as a file's inode, size and modification time.
    public let fingerprint: [Int64]

    /// A fingerprint made of these numbers.
    public init(_ fingerprint: [Int64]) { self.fingerprint = fingerprint }
}

/// A held lock; ``release()`` is called exactly once.
public protocol StorageLock: Sendable {
    /// Lets other processes and caches in again.
    func release()
}

extension TokenCachePersistence {
    /// No fingerprint: only this process writes to the storage, so the cache loads it once.
    public nonisolated(nonsending) func version() async throws -> StorageVersion? { nil }
    /// No lock: only this process writes to the storage.
    public nonisolated(nonsending) func lock() async throws -> (any StorageLock)? { nil }
    /// Keeps no copy: the cache starts empty and the next save overwrites the bytes.
    public nonisolated(nonsending) func setAside(reason: String) async throws -> String? { nil }
}
