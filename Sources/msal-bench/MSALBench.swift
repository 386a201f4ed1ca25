import ChildProcesses
import Foundation
import IdentityEmulator

/// `msal-bench`: release-mode benchmarks, one table, each figure next to its anchor.
///
/// Run with `swift run -c release --static-swift-stdlib msal-bench [silent] [signin] [cli] [cache] [emulator]
/// [confidential] [distributed] [webapi] [soak] [--framework hummingbird|vapor]` (all sections without arguments;
/// `webapi` measures Hummingbird and Vapor, Hummingbird alone with `--framework hummingbird`; bench/README.md).
/// `msal-bench hot-path-order FILE` writes the linker's symbol ordering file for `msal` (`scripts/hot-path-order`).
@main
struct MSALBench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        if arguments.count == 4, arguments[1] == "distributed-worker", let partitions = Int(arguments[2]),
            let seconds = Int(arguments[3])
        {
            return try await DistributedWorker(partitions: partitions, seconds: seconds).run()
        }
        if arguments.count == 3, arguments[1] == "hot-path-order" {
            let binaries = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent()
            return try await CLIStartBenchmark.writeHotPathOrder(
                binaries: binaries, to: URL(fileURLWithPath: arguments[2]))
        }
        let all: Set<String> = [
            "silent", "signin", "cli", "cache", "emulator", "confidential", "distributed", "webapi", "soak",
        ]
        let options: BenchOptions
        do {
            options = try BenchOptions(arguments: arguments.dropFirst())
        } catch {
            FileHandle.standardError.write(Data("msal-bench: \(error)\n".utf8))
            exit(2)
        }
        let sections = options.sections.isEmpty ? all : options.sections
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let duration = Duration.seconds(Int(ProcessInfo.processInfo.environment["MSAL_BENCH_SECONDS"] ?? "2") ?? 2)
        #if DEBUG
            let build = "debug build: its figures say little"
        #else
            let build = "release build"
        #endif
        print("msal-bench — \(Date().formatted(.iso8601)), \(cores) cores, \(build)")
        var rows: [(String, String, String)] = []
        // The cache file first, on a fresh heap like MSAL Python's process (the silent section leaves
        // gigabytes of freed 100,000-account caches behind, which slows the next large allocations).
        if sections.contains("cache") { rows += try await cacheFileRows() }
        if sections.contains("silent") { rows += try await silentRows() }
        if sections.contains("confidential") { rows += try await confidentialRows() }
        if sections.contains("distributed") { rows += try await distributedRows(duration) }
        if sections.contains("webapi") { rows += try await webAPIRows(duration, frameworks: options.frameworks) }
        if sections.contains("signin") { rows += try await signInRows() }
        if sections.contains("cli") { rows += try await cliRows() }
        if sections.contains("emulator") {
            let count = 9
            let rounds = try await EmulatorThroughput(duration: duration, concurrency: 32, rounds: count).run(
                signingTasks: cores)
            let signing = rounds.map(\.signaturesPerSecond).sorted()
            let grants = rounds.map(\.grantsPerSecond).sorted()
            let ratios = rounds.map(\.ratio).sorted()
            let failures = rounds.map(\.failures).reduce(0, +)
            rows += [
                (
                    "RS256 signing (RSA-2048), \(cores) tasks", String(format: "%.0f /s", signing[count / 2]),
                    String(format: "anchor; median of %d rounds (%.0f–%.0f)", count, signing[0], signing[count - 1])
                ),
                (
                    "emulator refresh grants, 32 connections on loopback", String(format: "%.0f /s", grants[count / 2]),
                    String(
                        format: "%.0f%% of signing, median of %d paired rounds (%.0f–%.0f%%; target ≥ 70%%)",
                        100 * ratios[count / 2], count, 100 * ratios[0], 100 * ratios[count - 1])
                        + (failures == 0 ? "" : ", \(failures) failed")
                ),
            ]
        }
        if sections.contains("soak") { rows += try await soakRows() }
        let width = rows.map(\.0.count).max() ?? 0
        for row in rows {
            print(
                row.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + row.1.padding(toLength: max(12, rows.map(\.1.count).max() ?? 0), withPad: " ", startingAt: 0)
                    + "  " + row.2)
        }
    }

    /// Requests per second on a trivial route and on the same route behind the integration's bearer-token check and
    /// permission requirement, for each of `frameworks`.
    static func webAPIRows(_ duration: Duration, frameworks: [WebFramework]) async throws -> [(String, String, String)]
    {
        // More rounds than the other sections: the load generator shares the two cores with the server, so a
        // single round's ratio varies widely.
        let count = 15
        let results = try await WebAPIBenchmark(duration: duration, connections: 32, rounds: count).run(frameworks)
        let anchor = results.first { $0.0 == .hummingbird }.map { $0.1.map(\.open).sorted()[count / 2] }
        var rows: [(String, String, String)] = []
        for (framework, rounds) in results {
            let open = rounds.map(\.open).sorted()
            let protected = rounds.map(\.protected).sorted()
            let ratios = rounds.map(\.ratio).sorted()
            let failures = rounds.map(\.failures).reduce(0, +)
            let besideHummingbird =
                framework == .hummingbird
                ? "" : anchor.map { String(format: "; %.0f%% of Hummingbird's", 100 * open[count / 2] / $0) } ?? ""
            rows += [
                (
                    "trivial route, 32 connections (\(framework.name))", String(format: "%.0f /s", open[count / 2]),
                    "anchor; median of \(count) rounds" + besideHummingbird
                ),
                (
                    "same route behind \(framework.bearerCheck) + scope requirement",
                    String(format: "%.0f /s", protected[count / 2]),
                    String(
                        format: "%.0f%% of it, median of %d paired rounds (%.0f–%.0f%%; target ≥ 90%%)",
                        100 * ratios[count / 2], count, 100 * ratios[0], 100 * ratios[count - 1])
                        + (failures == 0 ? "" : ", \(failures) failed")
                ),
            ]
        }
        return rows
    }

    /// The emulator's resident memory over `MSAL_BENCH_SOAK_GRANTS` refresh grants (1,000,000 by default).
    static func soakRows() async throws -> [(String, String, String)] {
        let grants = ProcessInfo.processInfo.environment["MSAL_BENCH_SOAK_GRANTS"].flatMap { Int($0) } ?? 1_000_000
        let warmUp = min(50_000, grants / 10)
        @Sendable func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        let outcome = try await EmulatorSoak(grants: grants, warmUp: warmUp, connections: 32).run { sample in
            let line =
                "soak: \(sample.grants.formatted()) grants, resident \(megabytes(sample.residentBytes)), "
                + "refresh tokens held \(sample.refreshTokens), request log \(sample.requestLog)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        guard let first = outcome.samples.first, let last = outcome.samples.last else { return [] }
        let middle = outcome.samples[outcome.samples.count / 2]
        let peak = outcome.samples.map { $0.residentBytes }.max() ?? last.residentBytes
        let growth = peak - first.residentBytes
        let rate = Double(last.grants) / outcome.seconds
        return [
            (
                "emulator resident memory, \(last.grants.formatted()) refresh grants",
                "\(megabytes(first.residentBytes)) → \(megabytes(middle.residentBytes)) → \(megabytes(last.residentBytes))",
                "after \(first.grants.formatted()) (warm-up), \(middle.grants.formatted()), \(last.grants.formatted()); "
                    + "peak growth \(megabytes(growth)) (target ≤ 50 MB)"
            ),
            (
                "emulator state at the end of the soak",
                "\(last.refreshTokens) refresh tokens",
                String(
                    format: "request log %d entries; %.0f grants/s over %.0f s", last.requestLog, rate, outcome.seconds)
                    + (outcome.failures == 0 ? "" : ", \(outcome.failures) failed")
            ),
        ]
    }

    /// The two-level cache on a loopback PostgreSQL, next to MSAL Python with a `SerializableTokenCache` per row.
    static func distributedRows(_ duration: Duration) async throws -> [(String, String, String)] {
        let partitions = ProcessInfo.processInfo.environment["MSAL_BENCH_PARTITIONS"].flatMap { Int($0) } ?? 10_000
        let ours = try await DistributedBenchmark(partitions: partitions, seconds: Int(duration.components.seconds))
            .run()
        func figure(_ latency: DistributedBenchmark.Latency) -> String {
            String(format: "%.2f / %.2f µs", latency.median.microseconds, latency.p99.microseconds)
        }
        let missing = "MSAL Python not found (set MSAL_PYTHON; psycopg from Tests/Interop/requirements.txt)"
        let l2Anchor =
            ours.python.l2.map {
                String(
                    format: "MSAL Python %@: %.2f× its speed (target ≤ 300 µs median)", figure($0),
                    $0.median.microseconds / ours.l2.median.microseconds)
            } ?? missing
        let fleetAnchor =
            ours.python.fleet.map {
                String(format: "MSAL Python %.0f /s: %.0f× (target ≥ 10×)", $0.rate, ours.fleet.rate / $0.rate)
            } ?? missing
        let count = partitions.formatted()
        return [
            ("web-app silent, L1 hit, one user (median / p99)", figure(ours.l1OneUser), "target ≤ 2 µs"),
            (
                "web-app silent, L1 hit, \(count) users in turn", figure(ours.l1),
                "each partition cold in the CPU's caches"
            ),
            ("web-app silent, L2 hit: account and token from PostgreSQL", figure(ours.l2), l2Anchor),
            (
                "app tokens, 4 processes × 16 tasks, \(count) tenants", String(format: "%.0f /s", ours.fleet.rate),
                fleetAnchor
            ),
            (
                "token requests, 4 processes first reaching \(count) tenants", "\(ours.fleet.warmUpTokenRequests)",
                "target \(count), one per tenant"
                    + (ours.python.fleet.map { "; MSAL Python \($0.warmUpTokenRequests)" } ?? "")
            ),
        ]
    }

    /// Silent cache hits with 1 to 100,000 accounts, next to MSAL Python's `acquire_token_silent`.
    static func silentRows() async throws -> [(String, String, String)] {
        var rows: [(String, String, String)] = []
        // Issued now, so MSAL Python (which reads the system clock) finds the tokens valid too.
        let issuedAt = Int(Date().timeIntervalSince1970)
        let environment = ProcessInfo.processInfo.environment
        let sizes =
            environment["MSAL_BENCH_SILENT_SIZES"]?.split(separator: ",").compactMap { Int($0) } ?? [
                1, 100, 10_000, 100_000,
            ]
        let calls = environment["MSAL_BENCH_SILENT_CALLS"].flatMap { Int($0) } ?? 20_000
        for accounts in sizes {
            let ours = try await SilentHitBenchmark(accounts: accounts, calls: calls, issuedAt: issuedAt).run()
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "msal-bench-silent-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            try JSONSerialization.data(
                withJSONObject: CacheFileBenchmark.document(accounts: accounts, compact: true, issuedAt: issuedAt)
            ).write(to: file)
            let python = try? PythonAnchor.run(script: "bench/msal_python_silent.py", arguments: [file.path, "2"])
            let anchor: String
            if let subset = python?["subset_us"] as? Double, let exact = python?["exact_us"] as? Double {
                anchor = String(
                    format: "MSAL Python %@ subset, %@ exact: %.0f× faster (target ≤ 2 µs, flat)",
                    Self.micro(subset), Self.micro(exact), subset / ours.median.microseconds)
            } else {
                anchor = "MSAL Python not found (set MSAL_PYTHON)"
            }
            rows.append(
                (
                    "silent hit, \(accounts.formatted()) accounts (median / p99)",
                    String(format: "%.2f / %.2f µs", ours.median.microseconds, ours.p99.microseconds),
                    anchor + (ours.requests == 1 ? "" : "; \(ours.requests) network requests")
                ))
        }
        return rows
    }

    /// App-token cache hits, one caller and 16 tasks, next to MSAL Python's `acquire_token_for_client`;
    /// then 1,000 callers at expiry.
    static func confidentialRows() async throws -> [(String, String, String)] {
        let calls = ProcessInfo.processInfo.environment["MSAL_BENCH_SILENT_CALLS"].flatMap { Int($0) } ?? 20_000
        let ours = try await ConfidentialBenchmark(calls: calls, callersAtExpiry: 1000).run()
        let python = try? PythonAnchor.run(script: "bench/msal_python_client_credentials.py", arguments: ["2"])
        let anchor: String
        if let median = python?["median_us"] as? Double, let p99 = python?["p99_us"] as? Double {
            anchor = String(
                format: "MSAL Python %@ / %@: %.0f× faster (target ≤ 2 µs, ≥ 20×)", Self.micro(median), Self.micro(p99),
                median / ours.single.median.microseconds)
        } else {
            anchor = "MSAL Python not found (set MSAL_PYTHON)"
        }
        func figure(_ pair: (median: Duration, p99: Duration)) -> String {
            String(format: "%.2f / %.2f µs", pair.median.microseconds, pair.p99.microseconds)
        }
        return [
            ("app-token cache hit, 1 caller (median / p99)", figure(ours.single), anchor),
            ("app-token cache hit, 16 concurrent tasks (median / p99)", figure(ours.concurrent), "per call"),
            (
                "1,000 concurrent acquireTokenForClient at expiry", ours.expiryTotal.milliseconds,
                "\(ours.requestsAtExpiry) token request\(ours.requestsAtExpiry == 1 ? "" : "s") (target: exactly 1)"
            ),
        ]
    }

    /// Interactive sign-in latency and single-flight refreshes through an in-process emulator.
    static func signInRows() async throws -> [(String, String, String)] {
        let result = try await SignInBenchmarks().run(signIns: 21, callers: [100, 1000])
        return [
            (
                "interactive sign-in end to end, scripted browser (median of 21)",
                result.interactiveMedian.milliseconds, ""
            )
        ]
            + result.singleFlight.map { flight in
                (
                    "\(flight.callers) concurrent silent calls, expired token", flight.total.milliseconds,
                    "\(flight.refreshes) refresh request\(flight.refreshes == 1 ? "" : "s") (target: exactly 1)"
                )
            }
    }

    /// Whole-process `msal token`, `msal kube get-token` and `msal git-credential get` next to MSAL Python doing the
    /// same, over the floor of a static binary that prints a file.
    static func cliRows() async throws -> [(String, String, String)] {
        let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let python = PythonAnchor.interpreter
        let hasPython = FileManager.default.isExecutableFile(atPath: python)
        let runs = 31
        let result = try await CLIStartBenchmark(runs: runs).run(
            binaries: binaries, python: hasPython ? python : nil)
        let runtime =
            try linksSwiftRuntimeDynamically(binaries.appendingPathComponent("msal"))
            ? "dynamic Swift runtime; see bench/README.md" : "static Swift runtime"
        let floor = String(format: "%.2f ms", result.floor.microseconds / 1000)
        return result.rows.map { row in
            let anchor =
                row.python.map {
                    String(
                        format: "MSAL Python %@: %.0f× faster (targets ≤ 4 ms, ≥ 40×); floor %@",
                        $0.milliseconds, $0.microseconds / row.msal.microseconds, floor)
                } ?? "MSAL Python not found (set MSAL_PYTHON); floor \(floor)"
            return (
                "CLI start: whole-process `\(row.command)`, warm one-account cache (median of \(runs), \(runtime))",
                String(format: "%.2f ms", row.msal.microseconds / 1000), anchor
            )
        }
    }

    /// Whether `binary` loads the Swift runtime as a shared library (built without `--static-swift-stdlib`).
    private static func linksSwiftRuntimeDynamically(_ binary: URL) throws -> Bool {
        try Data(contentsOf: binary, options: .alwaysMapped).range(of: Data("libswiftCore.so".utf8)) != nil
    }

    private static func micro(_ value: Double) -> String {
        value >= 1000 ? String(format: "%.1f ms", value / 1000) : String(format: "%.1f µs", value)
    }

    /// Load and save of a 10,000-account file, here and in MSAL Python (when it is installed), in paired
    /// rounds: each ratio compares one of our rounds with the MSAL Python round right after it.
    static func cacheFileRows() async throws -> [(String, String, String)] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("token_cache.json")
        let python =
            FileManager.default.isExecutableFile(atPath: PythonAnchor.interpreter)
            ? { (file: URL) in try PythonRounds(script: "bench/msal_python_cache_file.py", arguments: [file.path]) }
            : nil
        let result = try await CacheFileBenchmark(accounts: 10_000, rounds: 9).run(file: file, python: python)
        func row(_ name: String, _ figure: KeyPath<CacheFileBenchmark.Figures, Double>) -> (String, String, String) {
            let ours = median(result.rounds.map { $0.ours[keyPath: figure] })
            let pairs = result.rounds.compactMap { round in
                round.python.map { ($0[keyPath: figure], round.ours[keyPath: figure]) }
            }
            guard !pairs.isEmpty else {
                return (name, String(format: "%.1f ms", ours), "MSAL Python not found or failed (set MSAL_PYTHON)")
            }
            let ratios = pairs.map { $0.0 / $0.1 }.sorted()
            return (
                name, String(format: "%.1f ms", ours),
                String(
                    format: "MSAL Python %.0f ms: %.1f× faster, median of %d paired rounds (%.1f–%.1f×; target ≥ 5×)",
                    median(pairs.map(\.0)), median(ratios), ratios.count, ratios.first!, ratios.last!)
            )
        }
        let size = String(format: "%.1f MB", Double(result.fileBytes) / 1e6)
        return [
            row("cache file load, 10,000 accounts (\(size))", \.load),
            row("cache file save, 10,000 accounts, first", \.firstSave),
            row("cache file save, 10,000 accounts, again", \.laterSave),
        ]
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}

extension Duration {
    var microseconds: Double { Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12 }

    var milliseconds: String {
        String(format: "%.1f ms", Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15)
    }
}

/// Runs a Python anchor script with MSAL Python: `$MSAL_PYTHON`, else `.build-python/bin/python`.
enum PythonAnchor {
    static let interpreter = ProcessInfo.processInfo.environment["MSAL_PYTHON"] ?? ".build-python/bin/python"

    static func run(script: String, arguments: [String]) throws -> [String: Any] {
        let result = try ChildProcess.runToEnd(interpreter, [script] + arguments, error: .inherit)
        guard result.termination.succeeded,
            let object = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]
        else {
            throw BenchError("\(script) failed: \(result.text)")
        }
        return object
    }
}
