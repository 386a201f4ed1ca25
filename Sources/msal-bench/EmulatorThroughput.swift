import AsyncHTTPClient
import Foundation
import IdentityEmulator
import NIOCore

/// Refresh-token grants per second through an in-process emulator, driven over loopback HTTP by
/// `concurrency` keep-alive connections of a lean load generator (``LoopbackLoad``), next to the raw
/// RS256 signing rate. The two alternate for `rounds` rounds, so a slower or faster spell of the
/// machine (a shared VM's speed drifts) affects both sides of each round's ratio alike.
struct EmulatorThroughput {
    let duration: Duration
    let concurrency: Int
    let rounds: Int

    struct Round {
        let signaturesPerSecond: Double
        let grantsPerSecond: Double
        let failures: Int
        var ratio: Double { grantsPerSecond / signaturesPerSecond }
    }

    /// - Returns: the rounds, in the order they ran.
    /// - Throws: when the emulator cannot start or the load cannot connect.
    func run(signingTasks: Int) async throws -> [Round] {
        let configuration = EmulatorConfiguration(port: 0, seed: 1, accessTokenLifetime: 3600)
        return try await IdentityEmulator.withRunning(configuration) { running in
            let request = try await Self.refreshRequest(running)
            let load = LoopbackLoad(host: "127.0.0.1", port: running.port, request: request, connections: concurrency)
            var rounds: [Round] = []
            for _ in 0..<self.rounds {
                let signing = try await SigningBenchmark.signaturesPerSecond(
                    duration: duration, concurrency: signingTasks)
                let clock = ContinuousClock()
                let start = clock.now
                let result = try await load.run(
                    until: .now()
                        + .nanoseconds(
                            Int64(duration.components.seconds) * 1_000_000_000
                                + duration.components.attoseconds / 1_000_000_000))
                let elapsed = clock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                rounds.append(
                    Round(
                        signaturesPerSecond: signing, grantsPerSecond: Double(result.ok) / seconds,
                        failures: result.failed))
            }
            return rounds
        }
    }

    /// Signs in once (password grant) and returns the refresh-token request the load repeats.
    static func refreshRequest(_ running: RunningEmulator) async throws -> ByteBuffer {
        let client = HTTPClient.shared
        let tokenURL = running.authority("organizations").appendingPathComponent("oauth2/v2.0/token").absoluteString
        let ids = Directory.DemoIDs.self
        let login = try await post(
            client, tokenURL,
            [
                ("grant_type", "password"), ("client_id", ids.publicClient),
                ("username", "MeganB@contoso.onmicrosoft.com"),
                ("password", "Megan-Demo-Pass1"), ("scope", "User.Read openid profile offline_access"),
                ("client_info", "1"),
            ])
        guard let json = try JSONSerialization.jsonObject(with: Data(login.body.utf8)) as? [String: Any],
            let refreshToken = json["refresh_token"] as? String
        else { throw BenchError("no refresh token from the emulator: \(login.body)") }
        let body = formEncode([
            ("client_id", ids.publicClient), ("grant_type", "refresh_token"), ("refresh_token", refreshToken),
            ("scope", "User.Read openid profile offline_access"), ("client_info", "1"),
        ])
        return ByteBuffer(
            string: "POST \(URL(string: tokenURL)!.path) HTTP/1.1\r\nHost: 127.0.0.1:\(running.port)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
    }

    private static func post(_ client: HTTPClient, _ url: String, _ form: [(String, String)]) async throws -> (
        status: UInt, body: String
    ) {
        try await post(client, url, formEncode(form))
    }

    static func post(_ client: HTTPClient, _ url: String, _ body: String) async throws -> (status: UInt, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        return (response.status.code, String(buffer: buffer))
    }

    private static func formEncode(_ pairs: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }.joined(
            separator: "&")
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
