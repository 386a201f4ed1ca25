import AsyncHTTPClient
import Foundation
import IdentityEmulator
import NIOCore

/// Refresh-token grants per second through an in-process emulator, driven over loopback HTTP by
/// `concurrency` clients.
struct EmulatorThroughput {
    let duration: Duration
    let concurrency: Int

    func refreshGrantsPerSecond() async throws -> (perSecond: Double, failures: Int) {
        let configuration = EmulatorConfiguration(port: 0, seed: 1, accessTokenLifetime: 3600)
        return try await IdentityEmulator.withRunning(configuration) { running in
            var clientConfiguration = HTTPClient.Configuration()
            clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = concurrency
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
            do {
                let result = try await measure(client, running: running)
                try await client.shutdown()
                return result
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    private func measure(_ client: HTTPClient, running: RunningEmulator) async throws -> (perSecond: Double, failures: Int) {
        let tokenURL = running.authority("organizations").appendingPathComponent("oauth2/v2.0/token").absoluteString
        let ids = Directory.DemoIDs.self
        let login = try await post(client, tokenURL, [
            ("grant_type", "password"), ("client_id", ids.publicClient), ("username", "MeganB@contoso.onmicrosoft.com"),
            ("password", "Megan-Demo-Pass1"), ("scope", "User.Read openid profile offline_access"), ("client_info", "1"),
        ])
        guard let json = try JSONSerialization.jsonObject(with: Data(login.body.utf8)) as? [String: Any],
              let refreshToken = json["refresh_token"] as? String
        else { throw BenchError("no refresh token from the emulator: \(login.body)") }
        let body = formEncode([
            ("client_id", ids.publicClient), ("grant_type", "refresh_token"), ("refresh_token", refreshToken),
            ("scope", "User.Read openid profile offline_access"), ("client_info", "1"),
        ])
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: duration)
        let (ok, failed) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var ok = 0
                    var failed = 0
                    while clock.now < deadline {
                        let result = try await post(client, tokenURL, body: body)
                        if result.status == 200 { ok += 1 } else { failed += 1 }
                    }
                    return (ok, failed)
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (Double(ok) / seconds, failed)
    }

    private func post(_ client: HTTPClient, _ url: String, _ form: [(String, String)]) async throws -> (status: UInt, body: String) {
        try await post(client, url, body: formEncode(form))
    }

    private func post(_ client: HTTPClient, _ url: String, body: String) async throws -> (status: UInt, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        return (response.status.code, String(buffer: buffer))
    }

    private func formEncode(_ pairs: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }.joined(separator: "&")
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
