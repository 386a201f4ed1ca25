import AsyncHTTPClient
import ChildProcesses
import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import NIOSSL

/// Whole-process starts of the commands tools run on every call, from a warm one-account cache: `msal token`,
/// `msal kube get-token` (as kubectl runs it) and `msal git-credential get` (as git runs it), each next to a
/// Python script that does the same with MSAL Python and its `http_cache` on the same file
/// (`bench/msal_python_token.py`), and `startup-floor`, a static binary that prints a file, as the floor.
struct CLIStartBenchmark {
    let runs: Int

    /// One command's median start, and MSAL Python's doing the same.
    struct Row {
        let command: String
        let msal: Duration
        let python: Duration?
    }

    struct Result {
        let floor: Duration
        let rows: [Row]
    }

    /// A command `msal` runs, its arguments, the file it reads on standard input, and the scope MSAL Python asks for.
    struct Command {
        let name: String
        let arguments: [String]
        let inputFile: String?
        let scope: String
    }

    private static let kubeExecInfo = """
        {"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":false}}
        """

    /// - Parameter binaries: the folder holding release builds of `msal` and `startup-floor`.
    func run(binaries: URL, python: String?) async throws -> Result {
        try await Self.withWarmCommands(binaries: binaries) { _, cacheFile, environment, commands in
            let authority = environment["MSAL_AUTHORITY"]!
            let msal = binaries.appendingPathComponent("msal").path
            let floorBinary = binaries.appendingPathComponent("startup-floor").path
            let floorRun = { try Self.spawn(floorBinary, [cacheFile.path], environment) }
            let ours = commands.map { command in
                { try Self.spawn(msal, command.arguments, environment, input: command.inputFile) }
            }
            let theirs = commands.map { command in
                python.map { python in
                    {
                        try Self.spawn(
                            python,
                            [
                                "bench/msal_python_token.py", cacheFile.path, authority,
                                Directory.DemoIDs.publicClient, command.scope,
                            ], environment)
                    }
                }
            }
            // One untimed run of the script each discovers the authority and persists what it learned.
            for run in theirs { _ = try run?() }
            // Both binaries in one state, whatever the build and the machine left: dropped from the page cache, then
            // loaded by one untimed start each, as after a reboot.
            try PageCache.evict(msal)
            try PageCache.evict(floorBinary)
            _ = try floorRun()
            for run in ours { _ = try run() }
            // MSAL Python doing each command, the floor and each command in turn, round after round, so a slower
            // spell of the machine weighs on all of them alike and each ratio compares starts made side by side.
            // After MSAL Python's starts (130 ms of work that leaves the processor's caches cold) the floor and the
            // commands start once untimed, so that each is timed warm, as when run back to back.
            var floorSamples: [Duration] = []
            var ourSamples = [[Duration]](repeating: [], count: commands.count)
            var theirSamples = [[Duration]](repeating: [], count: commands.count)
            for _ in 0..<runs {
                for (index, run) in theirs.enumerated() {
                    if let run { theirSamples[index].append(try run()) }
                }
                if python != nil {
                    _ = try floorRun()
                    for run in ours { _ = try run() }
                }
                floorSamples.append(try floorRun())
                for (index, run) in ours.enumerated() { ourSamples[index].append(try run()) }
            }
            let rows = commands.indices.map { index in
                Row(
                    command: commands[index].name, msal: Self.median(ourSamples[index]),
                    python: theirSamples[index].isEmpty ? nil : Self.median(theirSamples[index]))
            }
            return Result(floor: Self.median(floorSamples), rows: rows)
        }
    }

    /// Signs the demo user in on an emulator over TLS, fills the cache with the three commands' tokens, runs each
    /// command once (which discovers the authority and persists what it learned), then calls `body` with the
    /// folder, the cache file, the commands' environment and the commands, all answered from the cache.
    static func withWarmCommands<T: Sendable>(
        binaries: URL,
        _ body: @Sendable (URL, URL, [String: String], [Command]) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "msal-bench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cacheFile = folder.appendingPathComponent("token_cache.json")
        let aks = "\(Directory.DemoIDs.aksServer)/.default"
        let devOps = "\(Directory.DemoIDs.azureDevOps)/.default"
        let gitRequest = folder.appendingPathComponent("git-request")
        try Data("protocol=https\nhost=dev.azure.com\npath=contoso/_git/app\n\n".utf8).write(to: gitRequest)
        let commands = [
            Command(name: "msal token", arguments: ["token"], inputFile: nil, scope: "User.Read"),
            Command(
                name: "msal kube get-token",
                arguments: ["kube", "get-token", "--login", "devicecode", "--server-id", Directory.DemoIDs.aksServer],
                inputFile: nil, scope: aks),
            Command(
                name: "msal git-credential get", arguments: ["git-credential", "get"], inputFile: gitRequest.path,
                scope: devOps),
        ]
        let configuration = EmulatorConfiguration(port: 0, tlsDirectory: folder.appendingPathComponent("tls"), seed: 5)
        return try await IdentityEmulator.withRunning(configuration) { emulator in
            guard let pem = emulator.caCertificatePEM, let caFile = emulator.caCertificateFile else {
                throw BenchError("no TLS")
            }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))
            return try await withHTTPClient(.init(tlsConfiguration: tls, redirectConfiguration: .disallow)) { http in
                let authority = emulator.authority("contoso.onmicrosoft.com").absoluteString
                var app = try PublicClientApplicationConfiguration(
                    clientID: Directory.DemoIDs.publicClient, authority: Authority(authority))
                app.transport = try DefaultHTTPTransport(trustedCAPEM: pem)
                app.cache = TokenCache(persistence: FileTokenCachePersistence(url: cacheFile))
                app.browser = AutomatedUser(
                    http: http,
                    choices: [.signIn(username: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")])
                let client = try PublicClientApplication(configuration: app)
                let signedIn = try await client.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
                // The other resources' tokens too, so every command is a cache hit.
                for scope in [aks, devOps] {
                    _ = try await client.acquireTokenSilently(
                        SilentParameters(scopes: [scope], account: signedIn.account))
                }
                let environment = [
                    "MSAL_AUTHORITY": authority, "MSAL_CA_BUNDLE": caFile.path, "MSAL_TOKEN_CACHE": cacheFile.path,
                    "MSAL_CLIENT_ID": Directory.DemoIDs.publicClient, "REQUESTS_CA_BUNDLE": caFile.path,
                    "KUBERNETES_EXEC_INFO": Self.kubeExecInfo, "HOME": folder.path,
                    "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                ]
                let msal = binaries.appendingPathComponent("msal").path
                for command in commands {
                    _ = try spawn(msal, command.arguments, environment, input: command.inputFile)
                }
                return try await body(folder, cacheFile, environment, commands)
            }
        }
    }

    /// Runs `tool` (found on `PATH`) to its end and returns what it printed.
    ///
    /// - Throws: when it cannot start or exits non-zero.
    static func output(
        of tool: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil
    ) throws -> String {
        let result = try ChildProcess.runToEnd(
            "/usr/bin/env", [tool] + arguments, environment: environment,
            input: try input.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, error: .inherit)
        guard result.termination.succeeded else {
            throw BenchError("\(tool) \(arguments.joined(separator: " ")) \(result.termination)")
        }
        return result.text
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    /// Runs a process to its end (standard input from `input` or /dev/null, output discarded) and returns the wall
    /// time from spawn to exit.
    ///
    /// - Throws: when it cannot start or exits non-zero.
    private static func spawn(
        _ path: String, _ arguments: [String], _ environment: [String: String], input: String? = nil
    ) throws -> Duration {
        let (termination, duration) = try ChildProcess.timed(
            path, arguments, environment: environment, input: input.map { .file($0) } ?? .null)
        guard termination.succeeded else {
            throw BenchError("\(path) \(arguments.joined(separator: " ")) \(termination)")
        }
        return duration
    }
}
