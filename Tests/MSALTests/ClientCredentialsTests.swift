import Foundation
import IdentityEmulator
import Logging
import MSAL
import Testing

@Suite("Client credentials")
struct ClientCredentialsTests {
    @Test("an app token from the network, then from the cache until the expiry buffer, with its roles")
    func cacheThenNetwork() async throws {
        try await Harness.with { h in
            let app = try h.confidentialApp()
            let first = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(first.source == .identityProvider)
            #expect(first.roles.contains("User.Read.All"))
            #expect(first.tenantID == h.ids.contosoTenant)
            let second = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(second.source == .cache)
            #expect(second.accessToken == first.accessToken)
            #expect(try await h.tokenRequests() == ["client_credentials"])

            h.clock.advance(by: 3600 - 299)
            let renewed = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(renewed.source == .identityProvider)
            #expect(try await h.tokenRequests().count == 2)
            let forced = try await app.acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault, forceRefresh: true))
            #expect(forced.source == .identityProvider)
        }
    }

    @Test("the default cache keeps time by the app's clock: a token dated by it stays in memory, not taken as expired")
    func defaultCacheFollowsTheClock() async throws {
        try await Harness.with { h in
            // The harness's clock is a week behind the system's: a cache on the system clock drops the partition.
            var configuration = try ConfidentialClientApplicationConfiguration(
                clientID: h.ids.confidentialClient, credential: h.daemonSecret,
                authority: h.authority(h.ids.contosoTenant))
            configuration.clock = h.clock
            configuration.sleep = { _ in await Task.yield() }
            let app = try ConfidentialClientApplication(configuration: configuration)
            _ = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(app.configuration.cache.partitionsInMemory == 1)
            #expect(configuration.cache.partitionsInMemory == 0, "each app has its own default cache")
        }
    }

    @Test("concurrent callers for the same scopes share one request")
    func singleFlight() async throws {
        try await Harness.with { h in
            let app = try h.confidentialApp()
            let scopes = h.graphDefault
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        try await app.acquireTokenForClient(ClientCredentialParameters(scopes: scopes)).accessToken
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            #expect(try await h.tokenRequests() == ["client_credentials"])
        }
    }

    @Test("a multi-tenant authority, empty scopes and a wrong secret are refused clearly; the secret appears nowhere")
    func badInput() async throws {
        try await Harness.with { h in
            let common = try h.confidentialApp(tenant: "common")
            let multiTenant = await #expect(throws: MSALError.self) {
                try await common.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            }
            #expect(multiTenant?.internalCode == .invalidParameter)
            #expect(multiTenant?.message.contains("tenant-specific") == true)
            let app = try h.confidentialApp()
            await #expect(throws: MSALError.self) {
                try await app.acquireTokenForClient(ClientCredentialParameters(scopes: []))
            }

            let store = CapturingLogHandler.Store()
            let secret = "not-the-daemon-secret-5f2a"
            let wrong = try h.confidentialApp(
                credential: .secret(secret), logger: Logger(label: "t") { _ in CapturingLogHandler(store: store) })
            let refused = await #expect(throws: MSALError.self) {
                try await wrong.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            }
            #expect(refused?.oauthError == "invalid_client")
            #expect(refused?.stsErrorCodes == [7_000_215])
            #expect(!"\(refused!)".contains(secret))
            #expect(!store.all.contains(secret))
            #expect(!store.all.isEmpty)
            #expect(!"\(ClientCredential.secret(secret))".contains(secret))
        }
    }

    @Test("scopes without /.default get Entra's invalid_scope")
    func scopeWithoutDefault() async throws {
        try await Harness.with { h in
            let app = try h.confidentialApp()
            let error = await #expect(throws: MSALError.self) {
                try await app.acquireTokenForClient(ClientCredentialParameters(scopes: ["User.Read"]))
            }
            #expect(error?.oauthError == "invalid_scope")
        }
    }
}
