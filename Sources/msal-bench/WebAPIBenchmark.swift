import Foundation
import IdentityEmulator
import MSAL
import NIOCore

/// Requests per second through an integration's protected-API middleware (bearer token and permission check) on a
/// trivial handler, next to the same handler on the same server without it, for each ``WebFramework``: driven by
/// ``LoopbackLoad`` over `connections` keep-alive connections, every request carrying the same token. The two
/// alternate for `rounds` rounds, so the machine's drift affects both sides of each round's ratio alike. The bearer
/// token is a daemon's app token for API 1 from an in-process emulator, the same on every request (as a client
/// reuses its token) and for every framework.
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

    /// Each of `frameworks` in turn, with its rounds.
    func run(_ frameworks: [WebFramework]) async throws -> [(WebFramework, [Round])] {
        let ids = Directory.DemoIDs.self
        return try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, accessTokenLifetime: 3600)) {
            emulator in
            let daemon = try ConfidentialClientApplicationConfiguration(
                clientID: ids.confidentialClient, credential: .secret(ids.confidentialSecret),
                authority: Authority(emulator.authority(ids.contosoTenant).absoluteString))
            let token = try await ConfidentialClientApplication(configuration: daemon)
                .acquireTokenForClient(ClientCredentialParameters(scopes: ["api://\(ids.api1)/.default"])).accessToken
            var results: [(WebFramework, [Round])] = []
            for framework in frameworks {
                let validator = try AccessTokenValidator(
                    authority: emulator.authority("organizations").absoluteString,
                    audiences: [ids.api1, "api://\(ids.api1)"])
                let rounds = try await framework.serve(validator: validator) { port in
                    try await measure(port: port, token: token)
                }
                results.append((framework, rounds))
            }
            return results
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
