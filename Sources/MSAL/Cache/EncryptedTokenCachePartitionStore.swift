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
/// Each sealed partition carries the id of the key that sealed it, and is bound to its partition key and to the
/// version the store gives the save (the authenticated data): a row copied to another partition does not open, nor
/// does an older sealed row put back under a later version. Rotating keys: seal with a new key and keep the old
/// ones in `previousKeys` until every partition has been saved again or has expired.
///
/// The version a save gets is known before it is sealed when the store numbers a save over version `n` as `n + 1`
/// and a new partition as 1, as ``InMemoryTokenCachePartitionStore`` and the PostgreSQL store do; a new partition
/// that replaces an expired row continues that row's numbering, and is then sealed again for the version after
/// the one it got, in a second save.
///
/// Rows sealed without their version (format 1) do not open unless `openingUnversionedRows` says so: they are
/// dropped like a damaged row, their tokens fetched again, and the next save seals the partition with its
/// version. Opening them keeps a fleet's cached tokens while its instances move to this format, but such a row can
/// be put back under any version, so the option is for that move only.
///
/// What it protects against: a copy of the store (a database dump, a backup, a replica) without the key
/// yields no token, and a row's bytes put back from such a copy under a later version do not open. What not:
/// anyone with the key and the store, a process that runs the app (it holds the key and the tokens in memory),
/// a whole row (bytes and version) put back as it was, and the partition keys and sizes, which stay visible.
public final class EncryptedTokenCachePartitionStore: TokenCachePartitionStore {
    /// The format sealed: the version is in the header and the authenticated data.
    static let format: UInt8 = 2
    /// The format sealed without the version; opened only with `openingUnversionedRows`.
    static let unversionedFormat: UInt8 = 1

    private let store: any TokenCachePartitionStore
    private let key: TokenCacheEncryptionKey
    private let keys: [String: TokenCacheEncryptionKey]
    private let openingUnversionedRows: Bool
    private let logger: Logger

    /// A store that seals with `key` and opens what `key` or one of `previousKeys` sealed.
    ///
    /// - Parameters:
    ///   - store: the store that keeps the sealed partitions.
    ///   - key: the key new saves are sealed with.
    ///   - previousKeys: keys that still open partitions sealed before a rotation.
    ///   - openingUnversionedRows: open rows sealed without their version (format 1) too, while a fleet moves
    ///     to the current format; such a row can be replayed under any version.
    ///   - logger: where partitions that cannot be opened are reported (by kind, never their contents).
    public init(
        _ store: any TokenCachePartitionStore, key: TokenCacheEncryptionKey,
        previousKeys: [TokenCacheEncryptionKey] = [], openingUnversionedRows: Bool = false,
        logger: Logger = Logger(label: "MSAL", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.store = store
        self.key = key
        keys = Dictionary((previousKeys + [key]).map { ($0.id, $0) }) { _, latest in latest }
        self.openingUnversionedRows = openingUnversionedRows
        self.logger = logger
    }

    /// The opened partition. One that cannot be opened (another key, another partition, another version,
    /// damaged) comes back with empty bytes and its version, so the cache starts the partition again and its
    /// next save replaces it.
    public nonisolated(nonsending) func load(_ partition: TokenCachePartition) async throws
        -> StoredTokenCachePartition?
    {
        guard let stored = try await store.load(partition) else { return nil }
        do {
            return StoredTokenCachePartition(
                data: try open(stored.data, partition: partition, version: stored.version), version: stored.version,
                expiresOn: stored.expiresOn)
        } catch {
            logger.warning(
                "a token cache partition could not be decrypted; it is dropped and its tokens fetched again",
                metadata: [
                    "partition_kind": "\(partition.kind.rawValue)",
                    "reason": "\((error as? MSALError)?.message ?? "the authentication tag does not match")",
                ])
            return StoredTokenCachePartition(data: Data(), version: stored.version, expiresOn: stored.expiresOn)
        }
    }

    /// Seals the partition for the version the save gives it, and saves it.
    ///
    /// - Throws: ``MSALError`` `unexpected` when the store numbers a save over version `n` otherwise than
    ///   `n + 1` (the row it saved does not open).
    public nonisolated(nonsending) func save(
        _ data: Data, for partition: TokenCachePartition, expiresOn: Date, expectedVersion: Int64?
    ) async throws -> Int64? {
        let next = (expectedVersion ?? 0) &+ 1
        guard
            let saved = try await store.save(
                try seal(data, partition: partition, version: next), for: partition, expiresOn: expiresOn,
                expectedVersion: expectedVersion)
        else { return nil }
        if saved == next { return saved }
        // A new partition over an expired row, numbered on from it: sealed again for the version after it.
        guard
            let resaved = try await store.save(
                try seal(data, partition: partition, version: saved &+ 1), for: partition, expiresOn: expiresOn,
                expectedVersion: saved)
        else { return nil }
        guard resaved == saved &+ 1 else {
            throw MSALError.internal(
                .unexpected,
                "The token cache store numbered a save over version \(saved) as \(resaved), not \(saved &+ 1): "
                    + "EncryptedTokenCachePartitionStore needs a store that numbers each save one more than the last."
            )
        }
        return resaved
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

    /// `format (2) | key id length (1) | key id | version (8, big-endian) | nonce (12) | ciphertext | tag (16)`;
    /// the header and the partition key are the authenticated data.
    func seal(_ data: Data, partition: TokenCachePartition, version: Int64) throws -> Data {
        let header =
            Data([Self.format, UInt8(key.id.utf8.count)]) + Data(key.id.utf8)
            + withUnsafeBytes(of: version.bigEndian) { Data($0) }
        let box = try AES.GCM.seal(data, using: key.key, authenticating: header + Data(partition.key.utf8))
        guard let combined = box.combined else {
            throw MSALError.internal(.unexpected, "AES-GCM gave no combined representation.")
        }
        return header + combined
    }

    /// The bytes `blob` sealed, when it was sealed for `partition` at `version` (or, in format 1 and with
    /// `openingUnversionedRows`, at any version).
    ///
    /// - Throws: ``MSALError`` `cacheCorrupted` naming why (format, key, version), or CryptoKit's error when the
    ///   authentication tag does not match.
    func open(_ blob: Data, partition: TokenCachePartition, version: Int64) throws -> Data {
        let bytes = [UInt8](blob)
        guard bytes.count > 2, [Self.format, Self.unversionedFormat].contains(bytes[0]) else {
            throw MSALError.internal(.cacheCorrupted, "The partition is not sealed in a known format.")
        }
        guard bytes[0] == Self.format || openingUnversionedRows else {
            throw MSALError.internal(
                .cacheCorrupted,
                "The partition was sealed without its version (format 1), which opens only with openingUnversionedRows."
            )
        }
        let idEnd = 2 + Int(bytes[1])
        let headerEnd = bytes[0] == Self.format ? idEnd + 8 : idEnd
        guard bytes.count > headerEnd else {
            throw MSALError.internal(.cacheCorrupted, "The partition is not sealed in a known format.")
        }
        guard let id = String(bytes: bytes[2..<idEnd], encoding: .utf8), let key = keys[id] else {
            throw MSALError.internal(.cacheCorrupted, "The partition was sealed with a key this app does not have.")
        }
        if bytes[0] == Self.format {
            let sealed = bytes[idEnd..<headerEnd].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            guard sealed == version else {
                throw MSALError.internal(
                    .cacheCorrupted,
                    "The partition was sealed for version \(sealed) and is stored as version \(version).")
            }
        }
        let box = try AES.GCM.SealedBox(combined: Data(bytes[headerEnd...]))
        return try AES.GCM.open(
            box, using: key.key, authenticating: Data(bytes[..<headerEnd]) + Data(partition.key.utf8))
    }
}
