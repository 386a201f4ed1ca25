import Foundation
import IdentityEmulator
import Testing

/// The real Azure CLI from PyPI (`$AZURE_CLI`, else `.build-azure-cli/bin/az`, both set up by `scripts/test`), run
/// with a configuration folder of its own, trusting the emulator's CA (`REQUESTS_CA_BUNDLE`), and registered with
/// the emulator as a custom cloud, as a user would.
struct AzureCLI: Sendable {
    let az: URL
    let root: URL
    let emulator: RunningEmulator

    /// The `az` to run; fails, naming the fix, when it is not installed.
    static func executable() throws -> URL {
        if let configured = ProcessInfo.processInfo.environment["AZURE_CLI"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        let local = MSALPython.repository.appendingPathComponent(".build-azure-cli/bin/az")
        guard FileManager.default.isExecutableFile(atPath: local.path) else {
            throw CLITestFailure(
                "Azure CLI is not installed: run scripts/test once (it installs Tests/Interop/azure-cli-requirements.txt into .build-azure-cli and sets AZURE_CLI)"
            )
        }
        return local
    }

    init(emulator: RunningEmulator) throws {
        az = try Self.executable()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("azure-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        self.emulator = emulator
    }

    var caFile: String { emulator.caCertificateFile?.path ?? "" }

    /// Only PATH and the proxy exclusions from outside; Azure CLI's folder, the emulator's CA, no telemetry.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        let outside = ProcessInfo.processInfo.environment
        var environment = [
            "PATH": outside["PATH"] ?? "/usr/bin:/bin", "HOME": root.path,
            "AZURE_CONFIG_DIR": root.appendingPathComponent("azure").path, "REQUESTS_CA_BUNDLE": caFile,
            "AZURE_CORE_COLLECT_TELEMETRY": "false", "AZURE_CORE_NO_COLOR": "true",
        ]
        for name in ["no_proxy", "NO_PROXY"] { environment[name] = outside[name] }
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs `az` to its end.
    func run(_ arguments: [String], _ extra: [String: String] = [:]) async throws -> CLIResult {
        try await CLIProcess.run(az, arguments, environment: environment(extra))
    }

    /// Runs `az` and expects it to succeed; returns its standard output parsed as JSON.
    func json(
        _ arguments: [String], _ extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Any {
        let result = try await run(arguments + ["--output", "json"], extra)
        #expect(
            result.status == 0, "az \(arguments.joined(separator: " ")): \(result.stderr)",
            sourceLocation: sourceLocation)
        guard let json = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: .fragmentsAllowed)
        else {
            throw CLITestFailure("az \(arguments.first ?? "") printed no JSON:\n\(result.stdout)\n\(result.stderr)")
        }
        return json
    }

    /// Starts `az` and returns while it runs (its standard error streamed).
    func start(_ arguments: [String], _ extra: [String: String] = [:]) throws -> CLIProcess {
        try CLIProcess(az, arguments, environment: environment(extra))
    }

    /// `az cloud register` with endpoint discovery (`GET /metadata/endpoints`) from the emulator's origin as
    /// Resource Manager, `az cloud set`, and `core.instance_discovery=false` (else MSAL Python asks
    /// login.microsoftonline.com about the emulator's host); returns what `az cloud show` reports.
    @discardableResult
    func registerCloud(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let register = try await run([
            "cloud", "register", "--name", "Emulator", "--endpoint-resource-manager", emulator.baseURL.absoluteString,
        ])
        #expect(register.status == 0, "az cloud register: \(register.stderr)", sourceLocation: sourceLocation)
        let set = try await run(["cloud", "set", "--name", "Emulator"])
        #expect(set.status == 0, "az cloud set: \(set.stderr)", sourceLocation: sourceLocation)
        let config = try await run(["config", "set", "core.instance_discovery=false"])
        #expect(config.status == 0, "az config set: \(config.stderr)", sourceLocation: sourceLocation)
        return try await json(["cloud", "show"], sourceLocation: sourceLocation) as? [String: Any] ?? [:]
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// Starts a TLS emulator on a free port and runs `body` with an Azure CLI registered with it.
    static func with(_ body: @Sendable (AzureCLI) async throws -> Void) async throws {
        let tls = FileManager.default.temporaryDirectory.appendingPathComponent("azure-cli-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tls) }
        var configuration = EmulatorConfiguration(port: 0)
        configuration.tlsDirectory = tls
        try await IdentityEmulator.withRunning(configuration) { emulator in
            let cli = try AzureCLI(emulator: emulator)
            defer { cli.remove() }
            try await cli.registerCloud()
            try await body(cli)
        }
    }

    /// How many token requests (`/oauth2/v2.0/token`) the emulator has served.
    func tokenRequests() async throws -> Int {
        try await CLICommandTests.served(emulator, path: "/oauth2/v2.0/token").count
    }
}
