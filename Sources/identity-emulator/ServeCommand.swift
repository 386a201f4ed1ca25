import ArgumentParser
import Foundation
import IdentityEmulator
import ListeningPort

/// `identity-emulator [serve]`: runs the emulator until Ctrl-C.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the emulator (the default command).",
        discussion: "Stop it with Ctrl-C. The admin API lives under /_emulator/ (loopback clients only).")

    @Option(help: "The interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8400

    @Option(help: "A directory JSON file (tenants, users, applications) replacing the built-in demo directory.")
    var config: String?

    @Option(
        help: ArgumentHelp(
            "A file that keeps the directory as changed (sign-ups, password resets, MFA methods, imports) across runs.",
            discussion:
                "Read at start when it exists (in place of --config or the demo directory), written after each change."
        ))
    var state: String?

    @Option(
        help: ArgumentHelp(
            "The origin clients reach the emulator at, when not the listening address (a host name, a proxy).",
            discussion:
                "Every issuer names it; requests naming another host than it or a loopback alias of the port get 421."))
    var publicURL: String?

    @Flag(help: "Serve HTTPS with a local CA, kept in --tls-directory across restarts (its PEM path is printed).")
    var tls = false

    @Option(help: "Where --tls keeps the CA certificate and its key (this user's only).")
    var tlsDirectory = CommandInput.defaultTLSFolder

    @Option(
        help: """
            Seed for every random value (ids, codes, tokens), for reproducible runs. Seeded secrets are predictable             (one reveals the next): for tests only. Without it they come from the system's secure generator.
            """)
    var seed: UInt64?

    @Option(help: "A fixed access-token lifetime in seconds (default: random 3600-5399, as Entra).")
    var tokenLifetime: Int?

    @Option(help: "Where the Azure Arc hosts write their challenges' key files (the Arc agent's folder by default).")
    var arcKeyFolder = "/var/opt/azcmagent/tokens"

    func run() async throws {
        if let problem = ListeningPort.problem(port) { try CommandInput.refuse("--port \(problem)") }
        let directory: Directory
        do {
            directory = try config.map { try Directory.load(contentsOf: URL(fileURLWithPath: $0)) } ?? .demo
        } catch let error as DirectoryConfigurationError {
            try CommandInput.refuse("\(config ?? ""): \(error)")
        }
        var configuration = EmulatorConfiguration(
            host: host, port: port, directory: directory,
            tlsDirectory: tls ? URL(fileURLWithPath: tlsDirectory) : nil,
            publicURL: try CommandInput.publicOrigin(publicURL),
            seed: seed, accessTokenLifetime: tokenLifetime)
        configuration.arcKeyFolder = URL(fileURLWithPath: arcKeyFolder, isDirectory: true)
        configuration.stateFile = state.map { URL(fileURLWithPath: $0) }
        do {
            try await IdentityEmulator.run(configuration) { running in
                FileHandle.standardOutput.write(Data((Banner(running).text + "\n").utf8))
            }
        } catch let error as IdentityEmulator.StartError {
            FileHandle.standardError.write(Data("identity-emulator: \(error)\n".utf8))
            throw ExitCode.failure
        }
        print("identity-emulator stopped")
    }
}
