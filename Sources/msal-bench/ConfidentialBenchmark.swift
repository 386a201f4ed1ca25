import Foundation
import Locking
import MSAL
import Synchronization

/// App-token cache hits (`acquireTokenForClient` answered from the app-token partition) by one caller and
/// by 16 concurrent tasks, each call timed alone; then `callersAtExpiry` concurrent callers once the
/// token is within the expiry buffer, counting the requests that reach the token endpoint.
struct ConfidentialBenchmark {
    let calls: Int
    let callersAtExpiry: Int

    struct Result {
        let single: (median: Duration, p99: Duration)
        let concurrent: (median: Duration, p99: Duration)
        let expiryTotal: Duration
        /// Token requests the callers at expiry made (the target is one).
        let requestsAtExpiry: Int
    }

    static let tenant = "8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b"
    static let client = "2c9e5b7a-8f14-4d3c-b6a9-7e0d1f2c3b45"
    static let scopes = ["https://graph.microsoft.com/.default"]

    func run() async throws -> Result {
        let transport = ClientCredentialsTransport()
        let clock = MovableTime(Date())
        var configuration = ConfidentialClientApplicationConfiguration(
            clientID: Self.client, credential: .secret("bench-secret"),
            authority: try Authority("https://login.microsoftonline.com/\(Self.tenant)"))
        configuration.transport = transport
        configuration.clock = clock
        let app = try ConfidentialClientApplication(configuration: configuration)
        for _ in 0..<min(calls, 1000) {
            guard
                try await app.acquireTokenForClient(ClientCredentialParameters(scopes: Self.scopes)).source
                    != .identityProvider
                    || transport.tokenRequests == 1
            else { throw BenchError("the app token was not served from the cache") }
        }
        let single = try await Self.samples(calls) {
            try await app.acquireTokenForClient(ClientCredentialParameters(scopes: Self.scopes))
        }
        let perTask = calls / 16
        let concurrent = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await Self.samples(perTask) {
                        try await app.acquireTokenForClient(ClientCredentialParameters(scopes: Self.scopes))
                    }
                }
            }
            return try await group.reduce(into: [Duration]()) { $0 += $1 }.sorted()
        }
        guard transport.tokenRequests == 1 else { throw BenchError("cache hits reached the token endpoint") }

        clock.advance(by: 3600 - 200)
        transport.tokenDelay = .milliseconds(20)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<callersAtExpiry {
                group.addTask {
                    _ = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: Self.scopes))
                }
            }
            try await group.waitForAll()
        }
        return Result(
            single: Self.percentiles(single), concurrent: Self.percentiles(concurrent),
            expiryTotal: ContinuousClock.now - start, requestsAtExpiry: transport.tokenRequests - 1)
    }

    private static func samples(_ count: Int, _ call: () async throws -> AppTokenResult) async throws -> [Duration] {
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            _ = try await call()
            samples.append(clock.now - start)
        }
        return samples.sorted()
    }

    private static func percentiles(_ sorted: [Duration]) -> (median: Duration, p99: Duration) {
        (sorted[sorted.count / 2], sorted[sorted.count * 99 / 100])
    }
}

/// A clock the benchmark moves forward.
final class MovableTime: TimeSource {
    private let current: Locked<Date>
    init(_ date: Date) { current = Locked(date) }
    func now() -> Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// Answers OpenID discovery and client-credentials grants for any tenant, counting token requests; a
/// token answer can be delayed so that concurrent callers meet at the single flight.
final class ClientCredentialsTransport: HTTPTransport {
    private let discovery = DiscoveryOnlyTransport()
    private let count = Atomic<Int>(0)
    private let delay = Locked<Duration>(.zero)

    var tokenRequests: Int { count.load(ordering: .relaxed) }
    var tokenDelay: Duration {
        get { delay.withLock { $0 } }
        set { delay.withLock { $0 = newValue } }
    }

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        guard request.url?.path.hasSuffix("/oauth2/v2.0/token") == true else {
            return try await discovery.send(request, body: body)
        }
        let number = count.add(1, ordering: .relaxed).newValue
        if tokenDelay > .zero { try await Task.sleep(for: tokenDelay) }
        let claims = Data(#"{"roles":["User.Read.All"],"idtyp":"app","n":\#(number)}"#.utf8).base64EncodedString()
        let answer =
            #"{"token_type":"Bearer","expires_in":3599,"ext_expires_in":3599,"access_token":"eyJhbGciOiJub25lIn0.\#(claims).c2ln"}"#
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(answer.utf8))
    }
}
