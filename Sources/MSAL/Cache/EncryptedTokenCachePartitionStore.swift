import Crypto
import Foundation
import Logging

/// A key that seals token cache partitions at rest, named so that stored partitions say which key sealed them.
public struct TokenCacheEncryptionKey: Sendable {
    /// The key's name, stored beside each sealed partition (not secret), e.g. `2026-11`.
    public let id: String
    let key: SymmetricKey

    /// A 256-bit AES key.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when `rawKey` is not 32 bytes or `id` is empty or longer than 255 bytes.
    public init(id: String, rawKey: Data) throws {
        guard rawKey.count == 32 else {
            throw MSALError.internal(.invalidParameter, "A token cache encryption key has 32 bytes (AES-256).")
        }
        guard !id.isEmpty, id.utf8.count <= 255 else {
            throw MSALError.internal(.invalidParameter, "A token cache encryption key needs an id of 1 to 255 bytes.")
        }
        self.id = id
        key = SymmetricKey(data: rawKey)
    }
}

/// Seals every partition with AES-256-GCM before another store keeps it, and opens it on the way back.
///
/// Each sealed partition carries the id of the key that sealed it, and is bound to its partition key (the
/// authenticated data): a row copied to another partition does not open. Rotating keys: seal with a new key
/// and keep the old ones in `previousKeys` until every partition has been saved again or has expired.
///
/// What it protects against: a copy of the store (a database dump, a backup, a replica) without the key
/// yields no token. What not: anyone with the key and the store, a process that runs the app (it holds
/// the key and the tokens in memory), and the partition keys and sizes, which stay visible.
public final class EncryptedTokenCachePartitionStore: TokenCachePartitionStore {
    static let format: UInt8 = 1

    private let store: any TokenCachePartitionStore
    private let key: TokenCacheEncryptionKey
    private let keys: [String: TokenCacheEncryptionKey]
    private let logger: Logger

    /// A store that seals with `key` and opens what `key` or one of `previousKeys` sealed.
    ///
    /// - Parameters:
    ///   - store: the store that keeps the sealed partitions.
    ///   - key: the key new saves are sealed with.
    ///   - previousKeys: keys that still open partitions sealed before a rotation.
    ///   - logger: where partitions that cannot be opened are reported (by kind, never their contents).
    public init(
        _ store: any TokenCachePartitionStore, key: TokenCacheEncryptionKey,
        previousKeys: [TokenCacheEncryptionKey] = [],
        logger: Logger = Logger(label: "MSAL", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.store = store
        self.key = key
        keys = Dictionary((previousKeys + [key]).map { ($0.id, $0) }) { _, latest in latest }
        self.logger = logger
    }

    /// The opened partition. One that cannot be opened (another key, another partition, damaged) comes back
    /// with empty bytes and its version, so the cache starts the partition again and its next save replaces it.
    public nonisolated(nonsending) func load(_ partition: TokenCachePartition) async throws
        -> StoredTokenCachePartition?
    {
        guard let stored = try await store.load(partition) else { return nil }
        do {
            return StoredTokenCachePartition(
                data: try open(stored.data, partition: partition), version: stored.version, expiresOn: stored.expiresOn)
        } catch {
            logger.warning(
                "a token cache partition could not be decrypted; it is dropped and its tokens fetched again",
                metadata: ["partition_kind": "\(partition.kind.rawValue)"])
            return StoredTokenCachePartition(data: Data(), version: stored.version, expiresOn: stored.expiresOn)
        }
    }

    /// Seals the partition and saves it.
    public nonisolated(nonsending) func save(
        _ data: Data, for partition: TokenCachePartition, expiresOn: Date, expectedVersion: Int64?
    ) async throws -> Int64? {
        try await store.save(
            try seal(data, partition: partition), for: partition, expiresOn: expiresOn,
            expectedVersion: expectedVersion)
    }

    /// Deletes the partition from the underlying store.
    public nonisolated(nonsending) func delete(_ partition: TokenCachePartition) async throws {
        try await store.delete(partition)
    }

    /// Purges the underlying store.
    public nonisolated(nonsending) func purgeExpired(before date: Date) async throws -> Int {
        try await store.purgeExpired(before: date)
    }

    /// The underlying store's refresh lock.
    public nonisolated(nonsending) func withRefreshLock<T: Sendable>(
        _ partition: TokenCachePartition, timeout: Duration, _ body: () async throws -> T
    ) async throws -> T {
        try await store.withRefreshLock(partition, timeout: timeout, body)
    }

    /// `format (1) | key id length (1) | key id | nonce (12) | ciphertext | tag (16)`; the header and the
    /// partition key are the authenticated data.
    func seal(_ data: Data, partition: TokenCachePartition) throws -> Data {
        let header = Data([Self.format, UInt8(key.id.utf8.count)]) + Data(key.id.utf8)
        let box = try AES.GCM.seal(data, using: key.key, authenticating: header + Data(partition.key.utf8))
        guard let combined = box.combined else {
            throw MSALError.internal(.unexpected, "AES-GCM gave no combined representation.")
        }
        return header + combined
    }

    func open(_ blob: Data, partition: TokenCachePartition) throws -> Data {
        let bytes = [UInt8](blob)
        guard bytes.count > 2, bytes[0] == Self.format, bytes.count > 2 + Int(bytes[1]) else {
            throw MSALError.internal(.cacheCorrupted, "The partition is not sealed in a known format.")
        }
        let idEnd = 2 + Int(bytes[1])
        guard let id = String(bytes: bytes[2..<idEnd], encoding: .utf8), let key = keys[id] else {
            throw MSALError.internal(.cacheCorrupted, "The partition was sealed with a key this app does not have.")
        }
        let box = try AES.GCM.SealedBox(combined: Data(bytes[idEnd...]))
        return try AES.GCM.open(box, using: key.key, authenticating: Data(bytes[..<idEnd]) + Data(partition.key.utf8))
    }
}
