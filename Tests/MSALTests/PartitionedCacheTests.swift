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
            let store = RecordingPartitionStore()
            let app = try h.confidentialApp(cache: PartitionedTokenCache(store: store))
            _ = try await app.acquireTokenForClient(scopes: h.graphDefault)
            let partition = TokenCachePartition.appTokens(
                clientID: h.ids.confidentialClient, tenant: h.ids.contosoTenant)
            #expect(store.loads == [partition.description])
            #expect(store.saves == [partition.description])
            let json = try #require(
                store.data(partition).flatMap { try JSONSerialization.jsonObject(with: $0) } as? [String: Any])
            #expect((json["AccessToken"] as? [String: Any])?.count == 1)
            #expect(json["RefreshToken"].map { ($0 as? [String: Any])?.isEmpty ?? true } ?? true)

            // A second app on the same store (another process of the fleet) reads the token without the network.
            let peer = try h.confidentialApp(cache: PartitionedTokenCache(store: store))
            #expect(try await peer.acquireTokenForClient(scopes: h.graphDefault).source == .cache)
            #expect(try await h.tokenRequests().count == 1)
        }
    }

    @Test("memory holds at most the bound; an evicted partition comes back from the store")
    func bounded() async throws {
        try await Harness.with { h in
            let store = RecordingPartitionStore()
            let cache = PartitionedTokenCache(store: store, maximumPartitionsInMemory: 2)
            let contoso = try h.confidentialApp(cache: cache)
            _ = try await contoso.acquireTokenForClient(scopes: h.graphDefault)
            for tenant in [h.ids.fabrikamTenant, "contoso.onmicrosoft.com", "fabrikam.onmicrosoft.com"] {
                _ = try await h.confidentialApp(tenant: tenant, cache: cache).acquireTokenForClient(
                    scopes: h.graphDefault)
                #expect(cache.partitionsInMemory <= 2)
            }
            let again = try await contoso.acquireTokenForClient(scopes: h.graphDefault)
            #expect(again.source == .cache)
            #expect(try await h.tokenRequests().count == 4)

            let unstored = PartitionedTokenCache(maximumPartitionsInMemory: 1)
            _ = try await h.confidentialApp(cache: unstored).acquireTokenForClient(scopes: h.graphDefault)
            _ = try await h.confidentialApp(tenant: h.ids.fabrikamTenant, cache: unstored)
                .acquireTokenForClient(scopes: h.graphDefault)
            #expect(unstored.partitionsInMemory == 1)
        }
    }
}
