import Foundation
import IdentityEmulator
import MSAL
import Testing

@Suite("On-behalf-of")
struct OnBehalfOfTests {
    /// Jane's access token for API 1, as API 1 receives it.
    static func incomingToken(_ h: Harness) async throws -> String {
        let user = try Expect.completed(
            try await h.nativeApp().signIn(username: Harness.jane.username, password: Harness.jane.password))
        return try await user.getAccessToken(scopes: ["api://\(h.ids.api1)/ToDoList.Read"]).accessToken
    }

    static func api1(_ h: Harness, cache: PartitionedTokenCache = PartitionedTokenCache()) throws
        -> ConfidentialClientApplication
    {
        try h.confidentialApp(
            client: h.ids.api1, credential: .secret(h.ids.api1Secret), tenant: h.ids.externalTenant, cache: cache)
    }

    @Test(
        "API 1 gets a Graph token for the caller's user, cached under the assertion's hash, then refreshed with the OBO refresh token"
    )
    func exchangeCacheRefresh() async throws {
        try await Harness.with { h in
            let incoming = try await Self.incomingToken(h)
            let store = RecordingPartitionStore(clock: h.clock)
            let api = try Self.api1(h, cache: PartitionedTokenCache(store: store, clock: h.clock))
            let before = try await h.tokenRequests().count
            let graph = try await api.acquireTokenOnBehalfOf(
                OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"]))
            #expect(graph.source == .identityProvider)
            #expect(graph.account.username == Harness.jane.username)
            let partition = TokenCachePartition.onBehalfOf(userAssertion: incoming)
            #expect(store.saves == [partition.description])
            let stored = String(decoding: try #require(try await store.data(partition)), as: UTF8.self)
            #expect(stored.contains(#""user_assertion_hash""#))
            #expect(!stored.contains(incoming), "the incoming token is not stored")

            let cached = try await api.acquireTokenOnBehalfOf(
                OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"]))
            #expect(cached.source == .cache)
            #expect(cached.accessToken == graph.accessToken)

            h.clock.advance(by: 3600)
            let refreshed = try await api.acquireTokenOnBehalfOf(
                OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"]))
            #expect(refreshed.source == .identityProvider)
            let grants = Array(try await h.tokenRequests().dropFirst(before))
            #expect(grants == ["urn:ietf:params:oauth:grant-type:jwt-bearer", "refresh_token"])

            let (me, _) = try await DefaultHTTPTransport().send(
                HTTPRequest(
                    method: .get, url: h.emulator.baseURL.appendingPathComponent("v1.0/me"),
                    headerFields: [.authorization: refreshed.authorizationHeader]),
                body: nil)
            #expect(me.status == .ok)
        }
    }

    @Test(
        "OnBehalfOfParameters: forceRefresh redeems the on-behalf-of refresh token; claims exchange the assertion again"
    )
    func forceRefreshAndClaims() async throws {
        try await Harness.with { h in
            let incoming = try await Self.incomingToken(h)
            let api = try Self.api1(h)
            let first = try await api.acquireTokenOnBehalfOf(
                OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"]))
            let before = try await h.tokenRequests().count
            let forced = try await api.acquireTokenOnBehalfOf(
                OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"], forceRefresh: true))
            #expect(forced.source == .identityProvider)
            #expect(forced.accessToken != first.accessToken)
            var challenged = OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"])
            challenged.claims = #"{"access_token":{"nbf":{"essential":true}}}"#
            #expect(try await api.acquireTokenOnBehalfOf(challenged).source == .identityProvider)
            let grants = Array(try await h.tokenRequests().dropFirst(before))
            #expect(grants == ["refresh_token", "urn:ietf:params:oauth:grant-type:jwt-bearer"])
        }
    }

    @Test("missing consent and a multifactor policy surface as interactionRequired with the claims challenge")
    func challenges() async throws {
        try await Harness.with { h in
            let incoming = try await Self.incomingToken(h)
            let api = try Self.api1(h)
            let consent = await #expect(throws: MSALError.self) {
                try await api.acquireTokenOnBehalfOf(
                    OnBehalfOfParameters(
                        userAssertion: incoming, scopes: ["api://\(h.ids.api2)/ToDoList.ReadWrite"]))
            }
            #expect(consent?.code == .interactionRequired)
            #expect(consent?.oauthSubError == "consent_required")
            #expect(consent?.stsErrorCodes == [65001])

            try await h.scenario("token", "multifactorRequired")
            let mfa = await #expect(throws: MSALError.self) {
                try await api.acquireTokenOnBehalfOf(
                    OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"]))
            }
            #expect(mfa?.code == .interactionRequired)
            #expect(mfa?.oauthError == "interaction_required")
            #expect(mfa?.claimsChallenge?.contains("polids") == true)
        }
    }

    @Test("a foreign, expired or app-only assertion and a multi-tenant authority are refused")
    func badAssertions() async throws {
        try await Harness.with { h in
            let api = try Self.api1(h)
            let daemonToken = try await h.confidentialApp().acquireTokenForClient(
                ClientCredentialParameters(scopes: h.api1Default)
            ).accessToken
            let appOnly = await #expect(throws: MSALError.self) {
                try await api.acquireTokenOnBehalfOf(
                    OnBehalfOfParameters(userAssertion: daemonToken, scopes: ["User.Read"]))
            }
            #expect(appOnly?.oauthError == "invalid_grant")

            let user = try Expect.completed(
                try await h.nativeApp().signIn(username: Harness.jane.username, password: Harness.jane.password))
            let forAPI2 = try await user.getAccessToken(scopes: ["api://\(h.ids.api2)/ToDoList.Read"]).accessToken
            let foreign = await #expect(throws: MSALError.self) {
                try await api.acquireTokenOnBehalfOf(
                    OnBehalfOfParameters(userAssertion: forAPI2, scopes: ["User.Read"]))
            }
            #expect(foreign?.stsErrorCodes == [500_131])

            let incoming = try await Self.incomingToken(h)
            try await h.setClockOffset(7200)
            let expired = await #expect(throws: MSALError.self) {
                try await api.acquireTokenOnBehalfOf(
                    OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"]))
            }
            #expect(expired?.stsErrorCodes == [500_133])
            #expect(expired?.code != .interactionRequired)

            let common = try h.confidentialApp(
                client: h.ids.api1, credential: .secret(h.ids.api1Secret), tenant: "common")
            let multiTenant = await #expect(throws: MSALError.self) {
                try await common.acquireTokenOnBehalfOf(
                    OnBehalfOfParameters(userAssertion: incoming, scopes: ["User.Read"]))
            }
            #expect(multiTenant?.internalCode == .invalidParameter)
        }
    }
}
