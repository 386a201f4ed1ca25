import Foundation
import MSAL
import Synchronization

/// Silent calls that the cache answers, with `accounts` accounts in an in-memory cache: each call is
/// timed on its own, and the median and 99th percentile reported. The requested scope (`User.Read`) is
/// a strict subset of the cached token's (`User.Read email openid profile`), the usual case.
struct SilentHitBenchmark {
    let accounts: Int
    let calls: Int
    /// When the cached tokens were issued (Unix seconds); the benchmark's clock stands 100 s later.
    let issuedAt: Int

    struct Result {
        let median: Duration
        let p99: Duration
        /// Network requests the whole run made (discovery, once).
        let requests: Int
    }

    static let tenant = "8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b"
    static let client = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"

    func run() async throws -> Result {
        let cache = TokenCache()
        try await cache.deserialize(
            JSONSerialization.data(
                withJSONObject: CacheFileBenchmark.document(accounts: accounts, compact: true, issuedAt: issuedAt)))
        let transport = DiscoveryOnlyTransport()
        let authority = try Authority("https://login.microsoftonline.com/\(Self.tenant)")
        var configuration = try PublicClientApplicationConfiguration(clientID: Self.client, authority: authority)
        configuration.transport = transport
        configuration.cache = cache
        configuration.clock = FixedTime(date: Date(timeIntervalSince1970: TimeInterval(issuedAt + 100)))
        let app = try PublicClientApplication(configuration: configuration)
        let middle = accounts / 2
        let identifier = String(format: "%08x-0000-4000-8000-%012x", middle, middle) + ".\(Self.tenant)"
        guard let account = try await app.account(identifier: identifier) else {
            throw BenchError("account \(identifier) not in the cache")
        }
        let parameters = SilentParameters(scopes: ["User.Read"], account: account)
        for _ in 0..<min(calls, 1000) {
            guard try await app.acquireTokenSilently(parameters).source == .cache else {
                throw BenchError("the silent call was not a cache hit")
            }
        }
        var samples: [Duration] = []
        samples.reserveCapacity(calls)
        let clock = ContinuousClock()
        for _ in 0..<calls {
            let start = clock.now
            _ = try await app.acquireTokenSilently(parameters)
            samples.append(clock.now - start)
        }
        samples.sort()
        return Result(median: samples[calls / 2], p99: samples[calls * 99 / 100], requests: transport.requests)
    }
}

/// A fixed "now", so the cached tokens stay valid for the whole run.
struct FixedTime: TimeSource {
    let date: Date
    func now() -> Date { date }
}

/// Answers only OpenID discovery, for the tenant the request's path names, and counts requests.
final class DiscoveryOnlyTransport: HTTPTransport {
    private let count = Atomic<Int>(0)

    var requests: Int { count.load(ordering: .relaxed) }

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        count.add(1, ordering: .relaxed)
        guard let url = request.url, url.path.hasSuffix("/.well-known/openid-configuration"),
            let tenant = url.pathComponents.dropFirst().first
        else { return (HTTPResponse(status: .notFound), Data()) }
        let base = "https://login.microsoftonline.com/\(tenant)"
        let document = """
            {"issuer":"\(base)/v2.0","authorization_endpoint":"\(base)/oauth2/v2.0/authorize",
             "token_endpoint":"\(base)/oauth2/v2.0/token","jwks_uri":"\(base)/discovery/v2.0/keys",
             "end_session_endpoint":"\(base)/oauth2/v2.0/logout","device_authorization_endpoint":"\(base)/oauth2/v2.0/devicecode"}
            """
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(document.utf8))
    }
}
