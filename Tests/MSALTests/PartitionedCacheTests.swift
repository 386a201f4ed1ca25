import Foundation
import IdentityEmulator
import MSAL
import Testing

@Suite("Partitioned token cache")
struct PartitionedCacheTests {
    @Test("partition keys follow MSAL.NET: client_tenant_AppTokenCache, the assertion hash, the home account id")
    func keys() {
        let app = TokenCachePartition.appTokens(clientID: "ABC", tenant: "Contoso.onmicrosoft.com")
        #expect(app.key == "abc_contoso.onmicrosoft.com_AppTokenCache")
        #expect(app.kind == .appTokens)
        // SHA-256("token") in base64url without padding.
        #expect(
            TokenCachePartition.onBehalfOf(userAssertion: "token").key == "PEaenWxYddN6Q_NT1PiOYfz4EsZu7jRXRlpAsNpBU-A")
        #expect(TokenCachePartition.user(homeAccountID: "UID.UTID").key == "uid.utid")
    }

    @Test("an app token is loaded from and saved to its own partition only")
    func appTokensTouchOnePartition() async throws {
        try await Harness.with { h in
            let store = RecordingPartitionStore(clock: h.clock)
            let app = try h.confidentialApp(cache: PartitionedTokenCache(store: store, clock: h.clock))
            _ = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            let partition = TokenCachePartition.appTokens(
                clientID: h.ids.confidentialClient, tenant: h.ids.contosoTenant)
            #expect(Set(store.loads) == [partition.description])
            #expect(store.saves == [partition.description])
            let stored = try #require(try await store.data(partition))
            let json = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
            #expect((json["AccessToken"] as? [String: Any])?.count == 1)
            #expect(json["RefreshToken"].map { ($0 as? [String: Any])?.isEmpty ?? true } ?? true)

            // A second app on the same store (another process of the fleet) reads the token without the network.
            let peer = try h.confidentialApp(cache: PartitionedTokenCache(store: store, clock: h.clock))
            #expect(
                try await peer.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault)).source
                    == .cache)
            #expect(try await h.tokenRequests().count == 1)
        }
    }

    @Test("with appTokens, app tokens are entries of that cache (a file another process reads); on-behalf-of's are not")
    func appTokensInATokenCache() async throws {
        try await Harness.with { h in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "app-tokens-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("token_cache.json")
            // Each call is a process of its own: a new cache on the same file.
            let cache = {
                PartitionedTokenCache(
                    appTokens: TokenCache(persistence: FileTokenCachePersistence(url: file)), clock: h.clock)
            }
            _ = try await h.confidentialApp(cache: cache()).acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault))
            let peer = try await h.confidentialApp(cache: cache()).acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault))
            #expect(peer.source == .cache)
            #expect(try await h.tokenRequests() == ["client_credentials"])

            let incoming = try await OnBehalfOfTests.incomingToken(h)
            let api = try OnBehalfOfTests.api1(h, cache: cache())
            #expect(
                try await api.acquireTokenOnBehalfOf(
                    OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"])
                ).source
                    == .identityProvider)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let tokens = (json["AccessToken"] as? [String: [String: Any]] ?? [:]).values
            #expect(
                tokens.map { $0["client_id"] as? String } == [h.ids.confidentialClient],
                "the app token only: on-behalf-of tokens stay in their partition")
        }
    }

    @Test("memory holds at most the bound in bytes; an evicted partition comes back from the store")
    func bounded() async throws {
        try await Harness.with { h in
            let store = RecordingPartitionStore(clock: h.clock)
            // About one partition with an app token (a little over 2 KB of JSON).
            let cache = PartitionedTokenCache(store: store, maximumBytesInMemory: 3000, clock: h.clock)
            let contoso = try h.confidentialApp(cache: cache)
            _ = try await contoso.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(cache.bytesInMemory > 0)
            for tenant in [h.ids.fabrikamTenant, "contoso.onmicrosoft.com", "fabrikam.onmicrosoft.com"] {
                _ = try await h.confidentialApp(tenant: tenant, cache: cache).acquireTokenForClient(
                    ClientCredentialParameters(
                        scopes: h.graphDefault))
                #expect(cache.bytesInMemory <= 3000)
            }
            #expect(cache.partitionsInMemory < 4)
            // A new app on the same cache (no memory of recent tokens) reads the evicted partition from the store.
            let again = try await h.confidentialApp(cache: cache).acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault))
            #expect(again.source == .cache)
            #expect(try await h.tokenRequests().count == 4)

            let unstored = PartitionedTokenCache(maximumBytesInMemory: 3000, clock: h.clock)
            _ = try await h.confidentialApp(cache: unstored).acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault))
            _ = try await h.confidentialApp(tenant: h.ids.fabrikamTenant, cache: unstored)
                .acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(unstored.partitionsInMemory == 1)
            #expect(unstored.bytesInMemory <= 3000)
        }
    }

    @Test("nothing is kept past its expiry: an expired partition is read again from the store")
    func expiry() async throws {
        try await Harness.with { h in
            let store = RecordingPartitionStore(clock: h.clock)
            let cache = PartitionedTokenCache(store: store, clock: h.clock)
            _ = try await h.confidentialApp(cache: cache).acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault))
            let loads = store.loads.count
            h.clock.advance(by: 3601)
            let renewed = try await h.confidentialApp(cache: cache).acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault))
            #expect(renewed.source == .identityProvider)
            #expect(store.loads.count > loads, "the expired partition was dropped from memory and looked up again")
            #expect(try await store.purgeExpired(before: h.clock.now()) == 0)
            h.clock.advance(by: 3601)
            #expect(try await store.purgeExpired(before: h.clock.now()) == 1)
        }
    }
}
