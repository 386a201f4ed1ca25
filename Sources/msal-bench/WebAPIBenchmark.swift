import Foundation
import Hummingbird
import IdentityEmulator
import Logging
import MSAL
import MSALHummingbird
import NIOCore
import ServiceLifecycle

/// Requests per second through the protected-API middleware (`BearerTokenMiddleware` and
/// `RequiredPermissionMiddleware`) on a trivial handler, next to the same handler on the same server without it,
/// driven by ``LoopbackLoad`` over `connections` keep-alive connections, every request carrying the same token. The two alternate for `rounds` rounds, so
/// the machine's drift affects both sides of each round's ratio alike. The bearer token is a daemon's app token for
/// API 1 from an in-process emulator, the same on every request (as a client reuses its token).
struct WebAPIBenchmark {
    let duration: Duration
    let connections: Int
    let rounds: Int

    struct Round {
        let open: Double
        let protected: Double
        let failures: Int
        var ratio: Double { protected / open }
    }

    struct Context: AccessTokenRequestContext {
        var coreContext: CoreRequestContextStorage
        var accessToken: ValidatedAccessToken?

        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    }

    func run() async throws -> [Round] {
        let ids = Directory.DemoIDs.self
        return try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, accessTokenLifetime: 3600)) {
            emulator in
            let daemon = try ConfidentialClientApplicationConfiguration(
                clientID: ids.confidentialClient, credential: .secret(ids.confidentialSecret),
                authority: Authority(emulator.authority(ids.contosoTenant).absoluteString))
            let token = try await ConfidentialClientApplication(configuration: daemon)
                .acquireTokenForClient(ClientCredentialParameters(scopes: ["api://\(ids.api1)/.default"])).accessToken
            let validator = try AccessTokenValidator(
                authority: emulator.authority("organizations").absoluteString,
                audiences: [ids.api1, "api://\(ids.api1)"])
            let router = Router(context: Context.self)
            router.get("open") { _, _ in "ok" }
            router.group("protected")
                .add(middleware: BearerTokenMiddleware<Context>(validator: validator))
                .add(middleware: RequiredPermissionMiddleware<Context>(appRoles: ["ToDoList.Read.All"]))
                .get { _, _ in "ok" }
            let (ports, portSignal) = AsyncStream<Int>.makeStream()
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in
                    portSignal.yield(channel.localAddress?.port ?? 0)
                    portSignal.finish()
                })
            let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "bench")))
            return try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next() else { throw BenchError("the web API did not start") }
                let rounds = try await measure(port: port, token: token)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return rounds
            }
        }
    }

    private func measure(port: Int, token: String) async throws -> [Round] {
        func load(_ path: String, authorization: String?) -> LoopbackLoad {
            let header = authorization.map { "Authorization: \($0)\r\n" } ?? ""
            return LoopbackLoad(
                host: "127.0.0.1", port: port,
                request: ByteBuffer(string: "GET /\(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(header)\r\n"),
                connections: connections)
        }
        // The same header on both: what is measured is the middleware, not a larger request.
        let open = load("open", authorization: "Bearer \(token)")
        let protected = load("protected", authorization: "Bearer \(token)")
        // Warm up both: the validator fetches the keys once, then remembers the token.
        _ = try await rate(protected, for: .milliseconds(300))
        _ = try await rate(open, for: .milliseconds(300))
        var rounds: [Round] = []
        for _ in 0..<self.rounds {
            let (openRate, openFailed) = try await rate(open, for: duration)
            let (protectedRate, protectedFailed) = try await rate(protected, for: duration)
            rounds.append(Round(open: openRate, protected: protectedRate, failures: openFailed + protectedFailed))
        }
        return rounds
    }

    private func rate(_ load: LoopbackLoad, for duration: Duration) async throws -> (Double, Int) {
        let clock = ContinuousClock()
        let start = clock.now
        let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        let result = try await load.run(until: .now() + .nanoseconds(nanoseconds))
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (Double(result.ok) / seconds, result.failed)
    }
}
