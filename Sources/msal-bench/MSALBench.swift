import Foundation
import IdentityEmulator

/// `msal-bench`: release-mode benchmarks, one table, each figure next to its anchor.
///
/// Run with `swift run -c release msal-bench`. This first cut measures the emulator (issue #8 adds the
/// library's figures).
@main
struct MSALBench {
    static func main() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let duration = Duration.seconds(Int(ProcessInfo.processInfo.environment["MSAL_BENCH_SECONDS"] ?? "5") ?? 5)
        print("msal-bench — \(Date().formatted(.iso8601)), \(cores) cores, release build")
        let signing = try await SigningBenchmark.signaturesPerSecond(duration: duration, concurrency: cores)
        let grants = try await EmulatorThroughput(duration: duration, concurrency: 32).refreshGrantsPerSecond()
        let rows: [(String, String, String)] = [
            ("RS256 signing (RSA-2048), \(cores) tasks", String(format: "%.0f /s", signing), "anchor"),
            ("emulator refresh grants, 32 clients on loopback", String(format: "%.0f /s", grants.perSecond),
             String(format: "%.0f%% of signing (target ≥ 70%%)", 100 * grants.perSecond / signing)
                + (grants.failures == 0 ? "" : ", \(grants.failures) failed")),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        for row in rows {
            print(row.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + row.1.padding(toLength: 12, withPad: " ", startingAt: 0) + "  " + row.2)
        }
    }
}
