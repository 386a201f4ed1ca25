import Foundation
import IdentityEmulator
import MSAL
import MSALPostgres
import TestServers
import Testing

/// Two web APIs (two processes: each its own first-level cache, one PostgreSQL table) calling a downstream API for
/// the same caller at once. The acquisition pipeline holds the partition's refresh lock and reads the cache again
/// under it, so only one of them asks the identity platform, whether it exchanges the incoming token or redeems the
/// on-behalf-of refresh token.
@Suite("One request across processes for a user's partition", .timeLimit(.minutes(5)))
struct SharedRefreshLockTests {
    static let ids = Directory.DemoIDs.self

    @Test("two processes exchanging one incoming token, then refreshing its result, make one request each time")
    func oneRequestPerPartition() async throws {
        try await PostgresCluster.with { cluster in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                let incoming = try await Self.incomingToken(emulator)
                let clock = ManualClock()
                let stores = try (0..<2).map { _ in
                    try PostgresTokenCacheStore(
                        url: PostgresConnectionURL(cluster.socketURL), operationTimeout: .seconds(30))
                }
                let apps = try stores.map {
                    try Self.api1(
                        emulator,
                        // A waiter gives up on another process's refresh after refreshLockWait and asks itself; on a
                        // busy machine a refresh can take longer than the 2 s default, so the test waits as long as it
                        // runs: what it shows is that the waiter finds the token, not how fast.
                        cache: PartitionedTokenCache(store: $0, refreshLockWait: .seconds(240), clock: clock),
                        clock: clock)
                }
                let parameters = OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"])

                let exchanged = try await Self.both(apps, parameters)
                #expect(try await FleetTests.grants(emulator, "urn:ietf:params:oauth:grant-type:jwt-bearer") == 1)
                #expect(exchanged.filter { $0.source == .identityProvider }.count == 1)
                #expect(Set(exchanged.map(\.accessToken)).count == 1)

                // The caller's own sign-in redeemed a refresh token too.
                let refreshesBefore = try await FleetTests.grants(emulator, "refresh_token")
                try await Self.advance(emulator, clock, by: exchanged[0].expiresOn.timeIntervalSince(clock.now()))
                let refreshed = try await Self.both(apps, parameters)
                #expect(try await FleetTests.grants(emulator, "refresh_token") == refreshesBefore + 1)
                #expect(try await FleetTests.grants(emulator, "urn:ietf:params:oauth:grant-type:jwt-bearer") == 1)
                #expect(Set(refreshed.map(\.accessToken)).count == 1)
                #expect(refreshed.filter { $0.source == .identityProvider }.count == 1)
                for store in stores { await store.shutdown() }
            }
        }
    }

    /// Both apps' calls, started together.
    static func both(_ apps: [ConfidentialClientApplication], _ parameters: OnBehalfOfParameters) async throws
        -> [AuthenticationResult]
    {
        async let first = apps[0].acquireTokenOnBehalfOf(parameters)
        async let second = apps[1].acquireTokenOnBehalfOf(parameters)
        return try await [first, second]
    }

    /// Moves the apps' clock and the emulator's by `seconds` (whole seconds, rounded up).
    static func advance(_ emulator: RunningEmulator, _ clock: ManualClock, by seconds: TimeInterval) async throws {
        let whole = Int(seconds.rounded(.up))
        clock.advance(by: TimeInterval(whole))
        var request = HTTPRequest(method: .post, url: emulator.baseURL.appendingPathComponent("_emulator/clock"))
        request.headerFields[.contentType] = "application/json"
        let (response, _) = try await DefaultHTTPTransport().send(
            request, body: Data(#"{"offsetSeconds":\#(whole)}"#.utf8))
        #expect(response.status == .ok)
    }

    /// Jane's access token for API 1, as API 1 receives it.
    static func incomingToken(_ emulator: RunningEmulator) async throws -> String {
        let configuration = try PublicClientApplicationConfiguration(
            clientID: ids.externalPublicClient,
            authority: Authority(emulator.authority("contosocustomers.onmicrosoft.com").absoluteString))
        let app = try NativeAuthApplication(configuration: configuration)
        let signIn = try await app.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4")
        let user = try #require({ if case .completed(let user) = signIn { user } else { nil } }())
        return try await user.getAccessToken(scopes: ["api://\(ids.api1)/ToDoList.Read"]).accessToken
    }

    static func api1(_ emulator: RunningEmulator, cache: PartitionedTokenCache, clock: ManualClock) throws
        -> ConfidentialClientApplication
    {
        var configuration = try ConfidentialClientApplicationConfiguration(
            clientID: ids.api1, credential: .secret(ids.api1Secret),
            authority: Authority(emulator.authority(ids.externalTenant).absoluteString))
        configuration.cache = cache
        configuration.clock = clock
        return try ConfidentialClientApplication(configuration: configuration)
    }
}
