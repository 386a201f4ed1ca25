import Foundation

/// The raw RS256 signing rate of the emulator's signer on this machine: the ceiling for any grant
/// that mints a token, reported next to the emulator's throughput by `msal-bench`.
public enum SigningBenchmark {
    /// Signs access-token-sized payloads on `concurrency` tasks for `duration`.
    ///
    /// - Returns: signatures per second, over all tasks.
    /// - Throws: when a key cannot be made or a signature fails.
    public static func signaturesPerSecond(duration: Duration, concurrency: Int) async throws -> Double {
        let key = try SigningKey.generate(now: Date())
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: duration)
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var count = 0
                    while clock.now < deadline {
                        let payload = JSONValue.object([
                            ("aud", .string("00000003-0000-0000-c000-000000000000")),
                            ("iat", .int(1_795_000_000 + count)),
                            ("oid", .string("55868a98-9f9a-4f0e-bed9-4405c0a6eb1f")),
                            ("scp", .string("User.Read openid profile email")),
                            ("uti", .string("worker-\(worker)-\(count)")), ("ver", .string("1.0")),
                        ])
                        _ = try JWT.sign(payload, with: key)
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = clock.now - start
        return Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
