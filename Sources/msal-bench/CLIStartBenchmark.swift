import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import NIOSSL

/// Whole-process `msal token` from a one-account persisted cache (start, read the file and the
/// persisted authority metadata, cache hit, print, exit) against a TLS emulator, next to a Python
/// script that does the same with MSAL Python and its `http_cache` on the same file
/// (`bench/msal_python_token.py`).
struct CLIStartBenchmark {
    let runs: Int

    struct Result {
        let msal: Duration
        let python: Duration?
    }

    func run(msalBinary: URL, python: String?) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "msal-bench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cacheFile = folder.appendingPathComponent("token_cache.json")
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
                _ = try await PublicClientApplication(configuration: app).acquireTokenInteractively(
                    InteractiveParameters(scopes: ["User.Read"]))
                let environment = [
                    "MSAL_AUTHORITY": authority, "MSAL_CA_BUNDLE": caFile.path, "MSAL_TOKEN_CACHE": cacheFile.path,
                    "MSAL_CLIENT_ID": Directory.DemoIDs.publicClient, "REQUESTS_CA_BUNDLE": caFile.path,
                    "HOME": folder.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                ]
                let ours = { try Self.spawn(msalBinary.path, ["token"], environment) }
                let theirs = python.map { python in
                    {
                        try Self.spawn(
                            python,
                            ["bench/msal_python_token.py", cacheFile.path, authority, Directory.DemoIDs.publicClient],
                            environment)
                    }
                }
                // One untimed run each discovers the authority and persists what it learned.
                _ = try ours()
                _ = try theirs?()
                return Result(msal: try Self.median(runs, ours), python: try theirs.map { try Self.median(runs, $0) })
            }
        }
    }

    private static func median(_ runs: Int, _ body: () throws -> Duration) throws -> Duration {
        var samples = try (0..<runs).map { _ in try body() }
        samples.sort()
        return samples[runs / 2]
    }

    /// Runs a process to its end (output discarded) and returns the wall time from spawn to exit.
    ///
    /// - Throws: when it cannot start or exits non-zero.
    private static func spawn(_ path: String, _ arguments: [String], _ environment: [String: String]) throws -> Duration
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { throw BenchError("cannot start \(path)") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let elapsed = clock.now - start
        guard status == 0 else {
            throw BenchError("\(path) \(arguments.joined(separator: " ")) exited with status \(status)")
        }
        return elapsed
    }
}
