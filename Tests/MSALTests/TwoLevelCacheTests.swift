import Crypto
import Foundation
import IdentityEmulator
import Locking
import Logging
import MSAL
import Testing

/// The partitioned cache in front of a shared store: several "processes" (caches) on one store, a store
/// that fails, rows that cannot be read, and sealing.
@Suite("Two-level token cache")
struct TwoLevelCacheTests {
    @Test("two processes writing one partition at once lose no write: the conflict is applied again")
    func conflictingSavesConverge() async throws {
        try await Harness.with { h in
            let store = InMemoryTokenCachePartitionStore(clock: h.clock)
            let processes = (0..<4).map { _ in PartitionedTokenCache(store: store, clock: h.clock) }
            let scopes = [h.graphDefault, h.api1Default]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, cache) in processes.enumerated() {
                    group.addTask {
                        _ = try await h.confidentialApp(cache: cache).acquireTokenForClient(
                            ClientCredentialParameters(scopes: scopes[index % 2]))
                    }
                }
                try await group.waitForAll()
            }
            let partition = TokenCachePartition.appTokens(
                clientID: h.ids.confidentialClient, tenant: h.ids.contosoTenant)
            let stored = try #require(try await store.load(partition))
            let json = try #require(try JSONSerialization.jsonObject(with: stored.data) as? [String: Any])
            let targets = Set(
                ((json["AccessToken"] as? [String: [String: Any]]) ?? [:]).values.compactMap { $0["target"] as? String }
            )
            #expect(targets == ["https://graph.microsoft.com/.default", "api://\(h.ids.api1)/.default"])
            // A fifth process finds both without the network.
            let before = try await h.tokenRequests().count
            let fifth = PartitionedTokenCache(store: store, clock: h.clock)
            for scope in scopes {
                #expect(
                    try await h.confidentialApp(cache: fifth).acquireTokenForClient(
                        ClientCredentialParameters(scopes: scope)
                    ).source == .cache)
            }
            #expect(try await h.tokenRequests().count == before)
        }
    }

    @Test(
        "a store that fails: tokens come from memory and the network, one warning, the store left alone for the retry interval, writes resume"
    )
    func outage() async throws {
        try await Harness.with { h in
            let store = FlakyStore(clock: h.clock)
            let log = CapturingLogHandler.Store()
            let cache = PartitionedTokenCache(
                store: store, storeRetryInterval: .seconds(5),
                logger: Logger(label: "t") { _ in CapturingLogHandler(store: log) }, clock: h.clock)
            store.down = true
            let app = try h.confidentialApp(cache: cache)
            let first = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(first.source == .identityProvider)
            let failed = store.attempts
            #expect(failed >= 1)
            _ = try await h.confidentialApp(cache: cache).acquireTokenForClient(
                ClientCredentialParameters(scopes: h.api1Default))
            // Memory still answers while the store is down.
            #expect(
                try await h.confidentialApp(cache: cache).acquireTokenForClient(
                    ClientCredentialParameters(scopes: h.graphDefault)
                ).source == .cache
            )
            #expect(store.attempts == failed, "the store was asked again within the retry interval")
            let warnings = log.lines.withLock { $0.filter { $0.hasPrefix("warning") } }
            #expect(warnings.count == 1, "\(warnings)")
            #expect(!log.all.contains(first.accessToken))

            // Still down after the interval: asked once more, no second warning.
            h.clock.advance(by: 5)
            _ = try await h.confidentialApp(cache: cache).acquireTokenForClient(
                ClientCredentialParameters(
                    scopes: h.graphDefault, forceRefresh: true))
            #expect(store.attempts > failed)
            #expect(log.lines.withLock { $0.filter { $0.hasPrefix("warning") } }.count == 1)

            store.down = false
            let partition = TokenCachePartition.appTokens(
                clientID: h.ids.confidentialClient, tenant: h.ids.contosoTenant)
            _ = try await h.confidentialApp(cache: cache).acquireTokenForClient(
                ClientCredentialParameters(
                    scopes: h.graphDefault, forceRefresh: true))
            #expect(try await store.inner.load(partition) == nil, "asked again before the interval passed")
            h.clock.advance(by: 5)
            let after = try await h.confidentialApp(cache: cache).acquireTokenForClient(
                ClientCredentialParameters(
                    scopes: h.graphDefault, forceRefresh: true))
            let stored = try #require(try await store.inner.load(partition), "the write after the outage")
            #expect(String(decoding: stored.data, as: UTF8.self).contains(after.accessToken))
            // The whole partition, the token fetched during the outage included.
            #expect(String(decoding: stored.data, as: UTF8.self).contains("api://\(h.ids.api1)/.default"))
            #expect(log.all.contains("token cache store is back"))
        }
    }

    @Test("a corrupted row is dropped with a warning and its token fetched again, never returned")
    func corruptedRow() async throws {
        try await Harness.with { h in
            let store = InMemoryTokenCachePartitionStore(clock: h.clock)
            let partition = TokenCachePartition.appTokens(
                clientID: h.ids.confidentialClient, tenant: h.ids.contosoTenant)
            _ = try await store.save(
                Data("{\"AccessToken\": {\"broken".utf8), for: partition, expiresOn: h.clock.now() + 3600,
                expectedVersion: nil)
            let token = try await h.confidentialApp(cache: PartitionedTokenCache(store: store, clock: h.clock))
                .acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(token.source == .identityProvider)
            let stored = try #require(try await store.load(partition))
            #expect(String(decoding: stored.data, as: UTF8.self).contains(token.accessToken), "the row was replaced")
        }
    }

    @Test("sealed rows: no token without the key, bound to their partition, old keys still open after rotation")
    func encryption() async throws {
        try await Harness.with { h in
            let plain = InMemoryTokenCachePartitionStore(clock: h.clock)
            let key = try TokenCacheEncryptionKey(id: "2026-11", rawKey: Data((0..<32).map { UInt8($0) }))
            let sealed = EncryptedTokenCachePartitionStore(plain, key: key)
            let token = try await h.confidentialApp(cache: PartitionedTokenCache(store: sealed, clock: h.clock))
                .acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            let partition = TokenCachePartition.appTokens(
                clientID: h.ids.confidentialClient, tenant: h.ids.contosoTenant)
            let row = try #require(try await plain.load(partition))
            #expect(row.data.range(of: Data(token.accessToken.utf8)) == nil)
            #expect(row.data.range(of: Data("AccessToken".utf8)) == nil)
            #expect(row.data.range(of: Data("2026-11".utf8)) != nil, "the key id is stored in the clear")

            // Another key cannot open it: the partition starts again and its token is fetched anew.
            let other = try TokenCacheEncryptionKey(id: "other", rawKey: Data(repeating: 7, count: 32))
            let stranger = try await h.confidentialApp(
                cache: PartitionedTokenCache(
                    store: EncryptedTokenCachePartitionStore(plain, key: other), clock: h.clock)
            ).acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(stranger.source == .identityProvider)

            // A sealed row copied to another partition does not open there.
            let copy = TokenCachePartition.appTokens(clientID: h.ids.confidentialClient, tenant: h.ids.fabrikamTenant)
            let current = try #require(try await plain.load(partition))
            _ = try await plain.save(current.data, for: copy, expiresOn: h.clock.now() + 3600, expectedVersion: nil)
            #expect(try await EncryptedTokenCachePartitionStore(plain, key: other).load(copy)?.data == Data())

            // Rotation: a new key seals, the old one still opens.
            let next = try TokenCacheEncryptionKey(id: "2026-12", rawKey: Data(repeating: 9, count: 32))
            let rotated = EncryptedTokenCachePartitionStore(plain, key: next, previousKeys: [other])
            #expect(try await rotated.load(partition).map { !$0.data.isEmpty } == true)

            #expect(throws: MSALError.self) { try TokenCacheEncryptionKey(id: "short", rawKey: Data(count: 16)) }
        }
    }
}

/// A store that fails while `down` is set, as a database that went away.
final class FlakyStore: TokenCachePartitionStore {
    let inner: InMemoryTokenCachePartitionStore
    private let isDown = Locked(false)
    private let calls = Locked(0)

    init(clock: any TimeSource) { inner = InMemoryTokenCachePartitionStore(clock: clock) }

    var down: Bool {
        get { isDown.withLock { $0 } }
        set { isDown.withLock { $0 = newValue } }
    }

    /// How many operations were asked of it.
    var attempts: Int { calls.withLock { $0 } }

    private func check() throws {
        calls.withLock { $0 += 1 }
        if down { throw MSALError.internal(.cacheUnavailable, "The store is down.") }
    }

    func load(_ partition: TokenCachePartition) async throws -> StoredTokenCachePartition? {
        try check()
        return try await inner.load(partition)
    }

    func save(_ data: Data, for partition: TokenCachePartition, expiresOn: Date, expectedVersion: Int64?)
        async throws -> Int64?
    {
        try check()
        return try await inner.save(data, for: partition, expiresOn: expiresOn, expectedVersion: expectedVersion)
    }

    func delete(_ partition: TokenCachePartition) async throws {
        try check()
        try await inner.delete(partition)
    }

    func purgeExpired(before date: Date) async throws -> Int {
        try check()
        return try await inner.purgeExpired(before: date)
    }
}
