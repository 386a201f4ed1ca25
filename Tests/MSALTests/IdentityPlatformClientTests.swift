import Foundation
import IdentityEmulator
import Locking
import Testing

@testable import MSAL

/// Everything the library sends to the identity platform goes through ``IdentityPlatformClient``: the same
/// headers on every endpoint and the same retry policy for discovery and keys as for tokens.
@Suite("Identity platform client: one set of headers and one retry policy for every endpoint")
struct IdentityPlatformClientTests {
    /// Sends with the default transport and keeps each request with its body.
    final class RecordingTransport: HTTPTransport {
        private let inner: any HTTPTransport
        private let recorded = Locked<[(request: HTTPRequest, body: Data?)]>([])

        init() throws { inner = try DefaultHTTPTransport() }

        /// Every request with its body, in order.
        var sent: [(request: HTTPRequest, body: Data?)] { recorded.withLock { $0 } }

        var requests: [HTTPRequest] { sent.map(\.request) }

        /// The bodies of the requests to token endpoints, in order.
        var tokenForms: [Data] { sent.filter { $0.request.url?.path.hasSuffix("/token") == true }.compactMap(\.body) }

        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            recorded.withLock { $0.append((request, body)) }
            return try await inner.send(request, body: body)
        }
    }

    static func configuration(_ h: Harness, client: String, tenant: String, transport: RecordingTransport) throws
        -> PublicClientApplicationConfiguration
    {
        var configuration = try PublicClientApplicationConfiguration(clientID: client, authority: h.authority(tenant))
        configuration.transport = transport
        configuration.clock = h.clock
        configuration.sleep = { _ in await Task.yield() }
        configuration.browser = h.user(Harness.megan)
        configuration.interactiveTimeout = .seconds(30)
        return configuration
    }

    @Test("instance discovery, OpenID discovery, keys, token, device code and native auth carry the same headers")
    func sameHeaders() async throws {
        try await Harness.with { h in
            let transport = try RecordingTransport()
            let app = try PublicClientApplication(
                configuration: Self.configuration(
                    h, client: h.ids.publicClient, tenant: "organizations", transport: transport))
            let signedIn = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            _ = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: signedIn.account, forceRefresh: true))
            let codeShown = try await #require(throws: CancellationError.self) {
                try await app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: ["User.Read"])) { _ in
                    throw CancellationError()
                }
            }
            _ = codeShown
            let native = try NativeAuthApplication(
                configuration: Self.configuration(
                    h, client: h.ids.externalPublicClient, tenant: "contosocustomers.onmicrosoft.com",
                    transport: transport),
                challengeTypes: [.oob, .password])
            _ = try await native.signIn(username: "nobody@example.com")

            let requests = transport.requests
            for suffix in [
                "/discovery/instance", "/.well-known/openid-configuration", "/discovery/v2.0/keys",
                "/oauth2/v2.0/token", "/oauth2/v2.0/devicecode", "/oauth2/v2.0/initiate",
            ] {
                #expect(requests.contains { $0.url?.path.hasSuffix(suffix) == true }, "no request to \(suffix)")
            }
            for request in requests {
                let headers = Dictionary(
                    request.headerFields.map { ($0.name.canonicalName, $0.value) },
                    uniquingKeysWith: { first, _ in first })
                let what = "\(request.method.rawValue) \(request.url?.path ?? "")"
                #expect(headers["accept"] == "application/json", "\(what)")
                #expect(headers["return-client-request-id"] == "true", "\(what)")
                #expect(headers["x-client-sku"] == "MSAL.Swift", "\(what)")
                #expect(headers["x-client-ver"] == LibraryIdentity.version, "\(what)")
                #expect(headers["x-client-os"] == "linux", "\(what)")
                #expect(headers["x-client-cpu"] == LibraryIdentity.cpu, "\(what)")
                #expect(headers["x-ms-lib-capability"] == "retry-after, h429", "\(what)")
                let id = try #require(headers["client-request-id"], "\(what)")
                #expect(UUID(uuidString: id) != nil && id == id.lowercased(), "\(what)")
                if request.method == .post {
                    #expect(headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8", "\(what)")
                }
            }
        }
    }

    @Test("one 503 from discovery and one 500 from the keys are retried, as the token endpoint's are")
    func discoveryAndKeysRetried() async throws {
        try await Harness.with { h in
            let sleeps = SleepLog()
            let app = try h.app(
                user: h.user(Harness.megan),
                sleep: { duration in
                    sleeps.record(duration)
                    await Task.yield()
                })
            try await h.scenario("discovery", "serviceUnavailable")
            try await h.scenario("keys", "serverError")
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            #expect(result.source == .identityProvider)
            #expect(try await h.discoveryRequests() == 2)
            #expect(sleeps.all == [.milliseconds(500), .milliseconds(500)])
        }
    }

    @Test("discovery failing twice is failedAuthorityValidation with the status, after one retry")
    func discoveryFailsAfterOneRetry() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            try await h.scenario("discovery", "serviceUnavailable", count: 2)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(error.internalCode == .failedAuthorityValidation, "\(error)")
            #expect(error.httpStatus == 503)
            #expect(try await h.discoveryRequests() == 2)
        }
    }
}
