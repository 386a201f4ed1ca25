import Crypto
import Foundation
import Logging
import MSAL
import Testing

/// A sealed partition is bound to the version the store gives its save: older bytes put back under a later
/// version do not open, a new partition over an expired row is sealed for the version it gets, and rows sealed
/// without their version open only when the app says so.
@Suite("Sealed rows: bound to their version")
struct SealedRowVersionTests {
    static let partition = TokenCachePartition.appTokens(clientID: "client-1", tenant: "tenant-1")
    static let rawKey = Data((0..<32).map { UInt8($0) })

    private static func sealed(
        _ plain: any TokenCachePartitionStore, unversioned: Bool = false, log: CapturingLogHandler.Store? = nil
    ) throws -> EncryptedTokenCachePartitionStore {
        let logger = Logger(label: "sealed") { _ in CapturingLogHandler(store: log ?? .init()) }
        return EncryptedTokenCachePartitionStore(
            plain, key: try TokenCacheEncryptionKey(id: "2026-11", rawKey: rawKey),
            openingUnversionedRows: unversioned, logger: logger)
    }

    @Test("an older sealed row put back under a later version does not open; the current one does")
    func rollback() async throws {
        let clock = TestClock()
        let plain = InMemoryTokenCachePartitionStore(clock: clock)
        let log = CapturingLogHandler.Store()
        let store = try Self.sealed(plain, log: log)
        let expiry = clock.now() + 3600
        #expect(
            try await store.save(Data("first".utf8), for: Self.partition, expiresOn: expiry, expectedVersion: nil) == 1)
        let first = try #require(try await plain.load(Self.partition))
        #expect(
            try await store.save(Data("second".utf8), for: Self.partition, expiresOn: expiry, expectedVersion: 1) == 2)
        #expect(
            try await store.load(Self.partition)
                == StoredTokenCachePartition(data: Data("second".utf8), version: 2, expiresOn: expiry))

        #expect(try await plain.save(first.data, for: Self.partition, expiresOn: expiry, expectedVersion: 2) == 3)
        let replayed = try #require(try await store.load(Self.partition))
        #expect(replayed.data.isEmpty, "the row sealed at version 1 is dropped at version 3")
        #expect(replayed.version == 3)
        #expect(log.all.contains("sealed for version 1 and is stored as version 3"), "\(log.all)")
        #expect(!log.all.contains("first"))
    }

    @Test("a new partition over an expired row is sealed for the version the store numbers on to, and opens")
    func newPartitionOverAnExpiredRow() async throws {
        let clock = TestClock()
        let plain = InMemoryTokenCachePartitionStore(clock: clock)
        let store = try Self.sealed(plain)
        _ = try await store.save(
            Data("old".utf8), for: Self.partition, expiresOn: clock.now() + 60, expectedVersion: nil)
        clock.advance(by: 120)
        #expect(try await store.load(Self.partition) == nil)

        let version = try await store.save(
            Data("new".utf8), for: Self.partition, expiresOn: clock.now() + 3600, expectedVersion: nil)
        let loaded = try #require(try await store.load(Self.partition))
        #expect(loaded.version == version)
        #expect(loaded.data == Data("new".utf8))
    }

    @Test("a store that numbers saves otherwise than one more than the last is refused clearly")
    func storeNumberingOtherwise() async throws {
        let store = try Self.sealed(SteppingStore())
        let error = await #expect(throws: MSALError.self) {
            _ = try await store.save(
                Data("x".utf8), for: Self.partition, expiresOn: Date() + 3600, expectedVersion: nil)
        }
        #expect(
            error?.message.contains("numbers each save one more than the last") == true, "\(String(describing: error))")
    }

    @Test("a row sealed without its version is dropped, or opened with openingUnversionedRows and sealed anew on save")
    func unversionedRows() async throws {
        let clock = TestClock()
        let plain = InMemoryTokenCachePartitionStore(clock: clock)
        let expiry = clock.now() + 3600
        let header = Data([1, 7]) + Data("2026-11".utf8)
        let box = try AES.GCM.seal(
            Data("kept".utf8), using: SymmetricKey(data: Self.rawKey),
            authenticating: header + Data(Self.partition.key.utf8))
        let unversioned = header + (try #require(box.combined))
        #expect(try await plain.save(unversioned, for: Self.partition, expiresOn: expiry, expectedVersion: nil) == 1)

        let log = CapturingLogHandler.Store()
        let dropped = try #require(try await Self.sealed(plain, log: log).load(Self.partition))
        #expect(dropped.data.isEmpty)
        #expect(log.all.contains("sealed without its version (format 1)"), "\(log.all)")

        let migrating = try Self.sealed(plain, unversioned: true)
        #expect(try await migrating.load(Self.partition)?.data == Data("kept".utf8))
        #expect(
            try await migrating.save(Data("kept".utf8), for: Self.partition, expiresOn: expiry, expectedVersion: 1) == 2
        )
        #expect(try await plain.load(Self.partition)?.data.first == 2, "saved in the versioned format")
        #expect(try await Self.sealed(plain).load(Self.partition)?.data == Data("kept".utf8))
    }
}

/// A store numbering each save ten more than the last: not what a sealing store can predict.
private final class SteppingStore: TokenCachePartitionStore {
    private let inner = InMemoryTokenCachePartitionStore()

    func load(_ partition: TokenCachePartition) async throws -> StoredTokenCachePartition? {
        try await inner.load(partition).map { .init(data: $0.data, version: $0.version * 10, expiresOn: $0.expiresOn) }
    }

    func save(_ data: Data, for partition: TokenCachePartition, expiresOn: Date, expectedVersion: Int64?)
        async throws -> Int64?
    {
        try await inner.save(
            data, for: partition, expiresOn: expiresOn, expectedVersion: expectedVersion.map { $0 / 10 }
        )
        .map { $0 * 10 }
    }

    func delete(_ partition: TokenCachePartition) async throws { try await inner.delete(partition) }

    func purgeExpired(before date: Date) async throws -> Int { try await inner.purgeExpired(before: date) }
}
