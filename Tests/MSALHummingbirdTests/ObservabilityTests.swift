import AsyncHTTPClient
import CoreMetrics
import EmulatorAutomation
import Foundation
import IdentityEmulator
import InMemoryTracing
import MSAL
import MetricsTestKit
import TestServers
import Testing
import Tracing

/// MSAL's spans and metrics with in-memory backends: token acquisition (cache hit, refresh, network), requests to
/// the identity platform by endpoint and outcome, validation results; and no token, username or password in them.
@Suite("Tracing and metrics", .timeLimit(.minutes(2)))
struct ObservabilityTests {
    typealias IDs = Directory.DemoIDs

    @Test("spans and counters for app tokens, a user's silent tokens and refresh, and token validation")
    func spansAndMetrics() async throws {
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        let forge = try TokenForge()
        let secrets = try await withTracer(tracer) {
            try await withMetricsFactory(metrics) {
                try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                    try await Self.exercise(emulator, forge: forge)
                }
            }
        }
        let finished = tracer.finishedSpans
        func spans(_ name: String) -> [FinishedInMemorySpan] { finished.filter { $0.operationName == name } }
        #expect(spans("msal.acquire_token_for_client").map { $0.attributes.get("msal.cache_hit") } == [.bool(false)])
        #expect(
            spans("msal.acquire_token_silent").map { $0.attributes.get("msal.cache_hit") } == [
                .bool(true), .bool(false),
            ])
        let http = spans("msal.http")
        #expect(http.allSatisfy { $0.kind == .client })
        let endpoints = http.compactMap { $0.attributes.get("msal.endpoint") }
        #expect(endpoints.contains(.string("token")) && endpoints.contains(.string("discovery")))
        #expect(http.contains { $0.attributes.get("http.response.status_code") == .int64(200) })

        func total(_ label: String, _ dimensions: [(String, String)]) -> Int64 {
            metrics.counterTotal(label: label, dimensions: dimensions)
        }
        #expect(total("msal.cache.lookups", [("flow", "client_credentials"), ("result", "miss")]) == 1)
        #expect(total("msal.cache.lookups", [("flow", "client_credentials"), ("result", "hit")]) == 1)
        #expect(total("msal.cache.lookups", [("flow", "silent"), ("result", "hit")]) == 1)
        #expect(total("msal.cache.lookups", [("flow", "silent"), ("result", "miss")]) == 1)
        #expect(total("msal.identity_platform.requests", [("endpoint", "token"), ("outcome", "ok")]) >= 3)
        #expect(try metrics.expectTimer("msal.identity_platform.duration", [("endpoint", "token")]).values.count >= 3)
        #expect(total("msal.token_validation", [("result", "accepted")]) == 1)
        #expect(total("msal.token_validation", [("result", "wrong_audience")]) == 1)

        #expect(
            spans("msal.acquire_token_on_behalf_of").map { $0.attributes.get("msal.cache_hit") } == [
                .bool(false), .bool(true),
            ])
        #expect(total("msal.cache.lookups", [("flow", "on_behalf_of"), ("result", "hit")]) == 1)
        // Requests to the identity platform are children of the acquisition that made them.
        let acquisitions = Set(
            finished.filter { $0.operationName.hasPrefix("msal.acquire_token") }.map(\.spanID))
        #expect(http.contains { $0.parentSpanID.map(acquisitions.contains) == true })

        var recorded: [String] = []
        // The emulator's admin API is the tests' harness, with usernames in its paths; a late admin call from another
        // test whose emulator had this port before reaches this one's spans too.
        let harness: (FinishedInMemorySpan) -> Bool = {
            guard case .string(let path)? = $0.attributes.get("url.path") else { return false }
            return path.hasPrefix("/_emulator/")
        }
        for span in finished where !harness(span) {
            recorded.append(span.operationName)
            recorded.append(String(describing: span.attributes))
            recorded.append(String(describing: span.events))
            recorded.append(String(describing: span.errors))
            recorded.append(String(describing: span.status))
        }
        for counter in metrics.counters { recorded += counter.dimensions.map { "\($0.0)=\($0.1)" } }
        for timer in metrics.timers { recorded += timer.dimensions.map { "\($0.0)=\($0.1)" } }
        for recorder in metrics.recorders { recorded += recorder.dimensions.map { "\($0.0)=\($0.1)" } }
        let text = recorded.joined(separator: "\n")
        for secret in secrets { #expect(!text.contains(secret), "a secret in the telemetry") }
    }

    /// App tokens (network, then the app's recent token), a user's sign-in, a silent hit and a forced refresh, and
    /// two validations; returns what must never appear in telemetry.
    static func exercise(_ emulator: RunningEmulator, forge: TokenForge) async throws -> [String] {
        let daemon = try ConfidentialClientApplication(
            configuration: ConfidentialClientApplicationConfiguration(
                clientID: IDs.confidentialClient, credential: .secret(IDs.confidentialSecret),
                authority: Authority(emulator.authority(IDs.contosoTenant).absoluteString)))
        let appToken = try await daemon.acquireTokenForClient(
            ClientCredentialParameters(scopes: ["api://\(IDs.api1)/.default"]))
        _ = try await daemon.acquireTokenForClient(ClientCredentialParameters(scopes: ["api://\(IDs.api1)/.default"]))

        let http = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(redirectConfiguration: .disallow))
        var configuration = try PublicClientApplicationConfiguration(
            clientID: IDs.publicClient, authority: Authority(emulator.authority(IDs.contosoTenant).absoluteString))
        configuration.browser = AutomatedUser(
            http: http, choices: [.signIn(username: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")])
        configuration.interactiveTimeout = .seconds(30)
        let app = try PublicClientApplication(configuration: configuration)
        let signedIn = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
        let hit = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: signedIn.account))
        let refreshed = try await app.acquireTokenSilently(
            SilentParameters(scopes: ["User.Read"], account: signedIn.account, forceRefresh: true))

        var validation = try AccessTokenValidator.Configuration(
            authority: Authority("\(TokenForge.instance)/organizations"), audiences: [TokenForge.api],
            allowedTenants: [TokenForge.tenant])
        validation.transport = forge.transport
        let validator = AccessTokenValidator(configuration: validation)
        let good = try forge.token(TokenForge.userClaims(now: Date()))
        _ = try await validator.validate(good)
        var claims = TokenForge.userClaims(now: Date())
        claims["aud"] = TokenForge.otherAPI
        await #expect(throws: AccessTokenRejection.self) { try await validator.validate(try forge.token(claims)) }
        // API 1 exchanges a customer's token for Graph on their behalf, then finds the result in its cache.
        let customerConfiguration = try PublicClientApplicationConfiguration(
            clientID: IDs.externalPublicClient,
            authority: Authority(emulator.authority(IDs.externalTenant).absoluteString))
        var customer = customerConfiguration
        customer.browser = AutomatedUser(
            http: http, choices: [.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4")])
        customer.interactiveTimeout = .seconds(30)
        let customerToken = try await PublicClientApplication(configuration: customer).acquireTokenInteractively(
            InteractiveParameters(scopes: ["api://\(IDs.api1)/ToDoList.Read"]))
        let api1 = try ConfidentialClientApplication(
            configuration: ConfidentialClientApplicationConfiguration(
                clientID: IDs.api1, credential: .secret(IDs.api1Secret),
                authority: Authority(emulator.authority(IDs.externalTenant).absoluteString)))
        let onBehalf = try await api1.acquireTokenOnBehalfOf(
            OnBehalfOfParameters(
                userAssertion: customerToken.accessToken, scopes: ["User.Read"]))
        _ = try await api1.acquireTokenOnBehalfOf(
            OnBehalfOfParameters(userAssertion: customerToken.accessToken, scopes: ["User.Read"]))
        try await http.shutdown()
        return [
            appToken.accessToken, signedIn.accessToken, hit.accessToken, refreshed.accessToken, good,
            "MeganB@contoso.onmicrosoft.com", "Megan-Demo-Pass1", IDs.confidentialSecret, signedIn.account.identifier,
            signedIn.idToken, refreshed.idToken, customerToken.accessToken, onBehalf.accessToken,
            "jane@example.com", "Jane-Demo-Pass4", IDs.api1Secret,
        ].compactMap { $0 }
    }
}
