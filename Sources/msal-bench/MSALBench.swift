import Foundation
import IdentityEmulator

/// `msal-bench`: release-mode benchmarks, one table, each figure next to its anchor.
///
/// Run with `swift run -c release msal-bench [cache] [emulator]` (all sections without arguments).
@main
struct MSALBench {
    static func main() async throws {
        let sections = Set(CommandLine.arguments.dropFirst()).isEmpty ? ["cache", "emulator"] : Set(CommandLine.arguments.dropFirst())
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let duration = Duration.seconds(Int(ProcessInfo.processInfo.environment["MSAL_BENCH_SECONDS"] ?? "5") ?? 5)
        print("msal-bench — \(Date().formatted(.iso8601)), \(cores) cores, release build")
        var rows: [(String, String, String)] = []
        if sections.contains("cache") { rows += try await cacheFileRows() }
        if sections.contains("emulator") {
            let signing = try await SigningBenchmark.signaturesPerSecond(duration: duration, concurrency: cores)
            let grants = try await EmulatorThroughput(duration: duration, concurrency: 32).refreshGrantsPerSecond()
            rows += [
                ("RS256 signing (RSA-2048), \(cores) tasks", String(format: "%.0f /s", signing), "anchor"),
                ("emulator refresh grants, 32 clients on loopback", String(format: "%.0f /s", grants.perSecond),
                 String(format: "%.0f%% of signing (target ≥ 70%%)", 100 * grants.perSecond / signing)
                    + (grants.failures == 0 ? "" : ", \(grants.failures) failed")),
            ]
        }
        let width = rows.map(\.0.count).max() ?? 0
        for row in rows {
            print(row.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + row.1.padding(toLength: 12, withPad: " ", startingAt: 0) + "  " + row.2)
        }
    }

    /// Load and save of a 10,000-account file, here and in MSAL Python (when it is installed).
    static func cacheFileRows() async throws -> [(String, String, String)] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("token_cache.json")
        let ours = try await CacheFileBenchmark(accounts: 10_000, rounds: 7).run(file: file)
        let python = try? PythonAnchor.run(script: "bench/msal_python_cache_file.py", arguments: [file.path, "7"])
        func anchor(_ key: String, _ mine: Duration) -> String {
            guard let milliseconds = python?[key] as? Double else { return "MSAL Python not found (set MSAL_PYTHON)" }
            let ratio = milliseconds / (Double(mine.components.attoseconds) / 1e15 + Double(mine.components.seconds) * 1000)
            return String(format: "MSAL Python %.0f ms: %.1f× faster (target ≥ 5×)", milliseconds, ratio)
        }
        let size = String(format: "%.1f MB", Double(ours.fileBytes) / 1e6)
        return [
            ("cache file load, 10,000 accounts (\(size))", ours.load.milliseconds, anchor("load_ms", ours.load)),
            ("cache file save, 10,000 accounts", ours.save.milliseconds, anchor("save_ms", ours.save)),
        ]
    }
}

extension Duration {
    var milliseconds: String {
        String(format: "%.1f ms", Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15)
    }
}

/// Runs a Python anchor script with MSAL Python: `$MSAL_PYTHON`, else `.build-python/bin/python`.
enum PythonAnchor {
    static func run(script: String, arguments: [String]) throws -> [String: Any] {
        let python = ProcessInfo.processInfo.environment["MSAL_PYTHON"] ?? ".build-python/bin/python"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let object = try JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            throw BenchError("\(script) failed: \(String(decoding: output, as: UTF8.self))")
        }
        return object
    }
}
