import AsyncHTTPClient
import Foundation
import IdentityEmulator
import NIOCore

/// An emulator kept busy for a long run: `grants` refresh-token grants through an in-process emulator on
/// `connections` keep-alive loopback connections (``LoopbackLoad``, one refresh token repeated, each grant
/// issuing a new one as Entra rotates them), with the process's resident memory and the emulator's live
/// counts sampled after a warm-up and then at every tenth of the run.
struct EmulatorSoak {
    let grants: Int
    let warmUp: Int
    let connections: Int

    struct Sample {
        let grants: Int
        let residentBytes: Int
        let refreshTokens: Int
        let requestLog: Int
    }

    struct Outcome {
        let samples: [Sample]
        let failures: Int
        let seconds: Double
    }

    /// - Parameter progress: called with each sample as it is taken (a run lasts minutes).
    /// - Throws: when the emulator cannot start, the load cannot connect or `/_emulator/stats` does not answer.
    func run(progress: @escaping @Sendable (Sample) -> Void) async throws -> Outcome {
        let configuration = EmulatorConfiguration(port: 0, seed: 1, accessTokenLifetime: 3600)
        return try await IdentityEmulator.withRunning(configuration) { running in
            let request = try await EmulatorThroughput.refreshRequest(running)
            let load = LoopbackLoad(host: "127.0.0.1", port: running.port, request: request, connections: connections)
            let clock = ContinuousClock()
            let start = clock.now
            var done = 0
            var failures = 0
            var samples: [Sample] = []
            var nextSample = warmUp
            while done < grants {
                let result = try await load.run(until: .now() + .seconds(2))
                done += result.ok
                failures += result.failed
                guard done >= nextSample || done >= grants else { continue }
                let sample = try await Self.sample(running, grants: done)
                samples.append(sample)
                progress(sample)
                nextSample = warmUp + (samples.count) * max(1, (grants - warmUp) / 10)
            }
            let elapsed = clock.now - start
            return Outcome(
                samples: samples, failures: failures,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }

    private static func sample(_ running: RunningEmulator, grants: Int) async throws -> Sample {
        let url = running.baseURL.appendingPathComponent("_emulator/stats").absoluteString
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard let stats = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
            let refreshTokens = stats["refreshTokens"] as? Int, let requestLog = stats["requestLog"] as? Int
        else { throw BenchError("unexpected /_emulator/stats answer: \(String(buffer: body))") }
        guard let resident = ResidentMemory.bytes() else { throw BenchError("no /proc/self/status on this system") }
        return Sample(grants: grants, residentBytes: resident, refreshTokens: refreshTokens, requestLog: requestLog)
    }
}
