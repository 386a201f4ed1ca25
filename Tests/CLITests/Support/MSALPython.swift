import Foundation
import IdentityEmulator
import Testing

/// The real MSAL Python (with msal-extensions): `$MSAL_PYTHON`, else `.build-python/bin/python`,
/// both set up by `scripts/test`.
enum MSALPython {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let cacheScript = repository.appendingPathComponent("Tests/Interop/msal_python_cache.py").path

    static func interpreter() throws -> URL {
        if let configured = ProcessInfo.processInfo.environment["MSAL_PYTHON"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        let local = repository.appendingPathComponent(".build-python/bin/python")
        guard FileManager.default.isExecutableFile(atPath: local.path) else {
            throw CLITestFailure(
                "MSAL Python is not installed: run scripts/test once, or `python3 -m venv .build-python && .build-python/bin/python -m pip install -r Tests/Interop/requirements.txt`"
            )
        }
        return local
    }

    /// Starts a scenario of `msal_python_cache.py` with a clean environment.
    static func start(_ arguments: [String]) throws -> CLIProcess {
        try CLIProcess(
            interpreter(), [cacheScript] + arguments,
            environment: [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": NSTemporaryDirectory(),
            ])
    }

    /// Runs a scenario to its end and returns the JSON object it printed.
    static func run(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await start(arguments).finish()
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last,
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw CLITestFailure("MSAL Python exited \(result.status):\n\(result.stdout)\n\(result.stderr)") }
        return object
    }

    /// MSAL Python signs `user` (username, password) in with the password grant at the sandbox's authority, through
    /// the emulator's TLS with `ca`, and writes the sandbox's cache file; expects it to get an access token.
    static func signInToFile(
        _ sandbox: CLISandbox, ca: String, as user: (String, String), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try FileManager.default.createDirectory(
            atPath: (sandbox.cachePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let python = try await run([
            "ropc-to-file", sandbox.cachePath, sandbox.authority, Directory.DemoIDs.publicClient, ca, user.0, user.1,
        ])
        #expect(
            (python["result"] as? [String: Any])?["has_access_token"] as? Bool == true, "\(python)",
            sourceLocation: sourceLocation)
    }
}
