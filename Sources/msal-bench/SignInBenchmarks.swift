import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import Locking
import MSAL
import Synchronization

/// Interactive sign-in latency end to end (library → scripted browser → emulator pages → loopback
/// redirect → code redemption → ID-token validation → cache), and single-flight refreshes: many
/// concurrent silent calls for an expired token, one refresh request.
struct SignInBenchmarks {
    struct Result {
        let interactiveMedian: Duration
        /// Callers, total time, refresh requests made.
        let singleFlight: [(callers: Int, total: Duration, refreshes: Int)]
    }

    func run(signIns: Int, callers: [Int]) async throws -> Result {
        let clock = BenchClock()
        let configuration = EmulatorConfiguration(
            port: 0, seed: 3, accessTokenLifetime: 3600, clock: EmulatorClock(base: { clock.now() }))
        return try await IdentityEmulator.withRunning(configuration) { emulator in
            try await withHTTPClient(.init(redirectConfiguration: .disallow)) { http in
                let transport = CountingTransport(inner: try DefaultHTTPTransport())
                var app = try PublicClientApplicationConfiguration(
                    clientID: Directory.DemoIDs.publicClient,
                    authority: Authority(emulator.authority("organizations").absoluteString))
                app.transport = transport
                app.clock = clock
                let megan = AutomatedUser.Choice.signIn(
                    username: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")
                var samples: [Duration] = []
                var account: Account?
                let timer = ContinuousClock()
                for _ in 0..<signIns {
                    app.browser = AutomatedUser(http: http, choices: [megan])
                    let client = try PublicClientApplication(configuration: app)
                    let start = timer.now
                    let result = try await client.acquireTokenInteractively(
                        InteractiveParameters(scopes: ["User.Read"], prompt: .login))
                    samples.append(timer.now - start)
                    account = result.account
                }
                samples.sort()
                guard let account else { throw BenchError("no sign-in") }
                let client = try PublicClientApplication(configuration: app)
                var flights: [(Int, Duration, Int)] = []
                for count in callers {
                    clock.advance(by: 2 * 3600)
                    let before = transport.tokenRequests
                    let start = timer.now
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<count {
                            group.addTask {
                                _ = try await client.acquireTokenSilently(
                                    SilentParameters(scopes: ["User.Read"], account: account))
                            }
                        }
                        try await group.waitForAll()
                    }
                    flights.append((count, timer.now - start, transport.tokenRequests - before))
                }
                return Result(interactiveMedian: samples[samples.count / 2], singleFlight: flights)
            }
        }
    }
}

/// Runs `body` with an HTTP client that is shut down afterwards.
func withHTTPClient<T>(_ configuration: HTTPClient.Configuration, _ body: (HTTPClient) async throws -> T) async throws
    -> T
{
    let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    do {
        let result = try await body(http)
        try await http.shutdown()
        return result
    } catch {
        try? await http.shutdown()
        throw error
    }
}

/// A clock the benchmark moves, shared by the library and the emulator.
final class BenchClock: TimeSource, Sendable {
    private let current = Locked(Date())
    func now() -> Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// Counts the POSTs to token endpoints that pass through.
final class CountingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let count = Atomic<Int>(0)

    init(inner: any HTTPTransport) { self.inner = inner }

    var tokenRequests: Int { count.load(ordering: .relaxed) }

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        if request.method == .post, request.url?.path.hasSuffix("/oauth2/v2.0/token") == true {
            count.add(1, ordering: .relaxed)
        }
        return try await inner.send(request, body: body)
    }
}
