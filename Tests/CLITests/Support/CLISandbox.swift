import Foundation
import IdentityEmulator
import Testing

/// A home of its own for each test: config and cache folders in a temporary directory, so no test
/// touches the user's files or another test's, and an environment pointing `msal` at an emulator.
struct CLISandbox: Sendable {
    let root: URL
    let authority: String

    var cachePath: String { root.appendingPathComponent("cache/msal/token_cache.json").path }
    var configFile: URL { root.appendingPathComponent("config/msal/config.json") }

    init(emulator: RunningEmulator, tenant: String = "contoso.onmicrosoft.com") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("msal-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        authority = emulator.authority(tenant).absoluteString
    }

    /// A clean environment: only PATH from the outside; `MSAL_AUTHORITY` set to the emulator, the file cache.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": root.path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
            "MSAL_AUTHORITY": authority,
            // The file, as on a machine without a keyring; the keyring tests choose for themselves.
            "MSAL_CACHE_BACKEND": "file",
        ]
        environment.merge(extra) { $1 }
        return environment
    }

    /// `$BROWSER` that signs in as `username` on the emulator's pages.
    static func browser(_ username: String, _ password: String) -> String {
        "\(Binaries.url("emulator-browser").path) --username \(username) --password \(password)"
    }

    /// `msal login` as Megan, signed in by `$BROWSER` on the emulator's pages, with `extra` in the environment;
    /// expects it to succeed.
    @discardableResult
    func loginAsMegan(_ extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> CLIResult
    {
        let browser = ["BROWSER": Self.browser(CLICommandTests.megan.0, CLICommandTests.megan.1)]
        let login = try await msal(["login"], extra.merging(browser) { $1 })
        #expect(login.status == 0, "\(login.stderr)", sourceLocation: sourceLocation)
        return login
    }

    /// Runs `msal` to its end.
    func msal(_ arguments: [String], _ extra: [String: String] = [:]) async throws -> CLIResult {
        try await CLIProcess.run(Binaries.url("msal"), arguments, environment: environment(extra))
    }

    /// Starts `msal` and returns while it runs.
    /// Runs `msal` with `input` as its standard input's only line (`--password-stdin`).
    func msal(_ arguments: [String], _ extra: [String: String] = [:], input: String) async throws -> CLIResult {
        let process = try start(arguments, extra, takingInput: true)
        process.send(input)
        process.endInput()
        return try await process.finish()
    }

    func start(_ arguments: [String], _ extra: [String: String] = [:], takingInput: Bool = false) throws -> CLIProcess {
        try CLIProcess(Binaries.url("msal"), arguments, environment: environment(extra), takingInput: takingInput)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
