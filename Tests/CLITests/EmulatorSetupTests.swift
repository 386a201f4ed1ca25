import Foundation
import IdentityEmulator
import Testing

/// The emulator's banner points the other tools at its actual port, and the servers refuse a port or a directory
/// file they cannot use with the reason.
@Suite("Pointing the tools at the emulator; bad ports and directory files", .timeLimit(.minutes(5)))
struct EmulatorSetupTests {
    /// Runs `identity-emulator --port 0` with `extra` until `body` returns, giving it the banner.
    static func withEmulatorBinary<T: Sendable>(_ extra: [String] = [], _ body: (String) async throws -> T)
        async throws -> T
    {
        let process = try CLIProcess(
            EmulatorBinaryTests.binary, ["--port", "0"] + extra, environment: [:], streamingStdout: true)
        let banner = try await process.waitForOutput { $0.contains("Press Ctrl-C to stop.") ? $0 : nil }
        do {
            let result = try await body(banner)
            process.interrupt()
            _ = try await process.finish()
            return result
        } catch {
            process.interrupt()
            _ = try? await process.finish()
            throw error
        }
    }

    /// The banner's `export NAME=VALUE` lines.
    static func exports(_ banner: String) -> [String: String] {
        var variables: [String: String] = [:]
        for line in banner.split(separator: "\n") {
            guard let match = line.wholeMatch(of: #/  export (?<name>[A-Z_]+)=(?<value>\S+)/#) else { continue }
            variables[String(match.output.name)] = String(match.output.value)
        }
        return variables
    }

    @Test(
        "the banner's export lines, pasted, point msal at the emulator's actual port (and its CA with --tls)",
        arguments: [false, true])
    func exportLines(tls: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.withEmulatorBinary(tls ? ["--tls", "--tls-directory", folder.path] : []) { banner in
            let base = try #require(
                banner.firstMatch(of: #/listening on (?<url>https?://127\.0\.0\.1:\d+)/#).map { String($0.output.url) })
            let exports = Self.exports(banner)
            #expect(exports["MSAL_AUTHORITY"] == "\(base)/contoso.onmicrosoft.com", "\(banner)")
            #expect(exports["MSAL_CLIENT_ID"] == Directory.DemoIDs.publicClient)
            #expect(
                exports["MSAL_CA_BUNDLE"]
                    == (tls ? folder.appendingPathComponent("identity-emulator-ca.pem").path : nil))
            #expect(banner.contains("  todo-api --identity-provider \(base)\n") == !tls)
            #expect(banner.contains("  webapp-sample --identity-provider \(base)\n") == !tls)

            let root = FileManager.default.temporaryDirectory.appendingPathComponent("msal-cli-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            var environment = exports
            environment.merge([
                "HOME": root.path, "MSAL_CACHE_BACKEND": "file", "DAEMON_SECRET": Directory.DemoIDs.confidentialSecret,
            ]) { $1 }
            let token = try await CLIProcess.run(
                Binaries.url("msal"),
                [
                    "app", "token", "--client-id", Directory.DemoIDs.confidentialClient, "--tenant",
                    "contoso.onmicrosoft.com", "--scopes", "https://graph.microsoft.com/.default",
                    "--client-secret-env", "DAEMON_SECRET", "--verbose",
                ], environment: environment)
            #expect(token.status == 0, "\(token.stderr)")
            #expect(token.stderr.contains("msal: authority: \(base)/contoso.onmicrosoft.com (environment)"))
        }
    }

    @Test(
        "each server refuses a port out of range, and a port in use naming it and how to choose another",
        arguments: ["identity-emulator", "todo-api", "webapp-sample"])
    func ports(binary: String) async throws {
        let outOfRange = try await CLIProcess.run(Binaries.url(binary), ["--port", "99999"], environment: [:])
        #expect(outOfRange.status != 0)
        #expect(outOfRange.stderr.contains("--port must be 0–65535, not 99999"), "\(outOfRange.stderr)")
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { busy in
            let inUse = try await CLIProcess.run(Binaries.url(binary), ["--port", "\(busy.port)"], environment: [:])
            #expect(inUse.status == 1)
            #expect(
                inUse.stderr.contains(
                    "127.0.0.1:\(busy.port) is already in use by another program: stop it, or choose another port "
                        + "with --port (--port 0 picks a free one)"), "\(inUse.stderr)")
            #expect(!inUse.stderr.contains("errno"))
        }
    }

    @Test("a directory file that is not JSON is refused naming the file, the line and the column, exit 2")
    func directoryFileNotJSON() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("directory-\(UUID().uuidString).json")
        try Data("{\n  \"tenants\": [],\n  users: []\n}\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await CLIProcess.run(EmulatorBinaryTests.binary, ["--config", file.path], environment: [:])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "identity-emulator: \(file.path): invalid directory configuration: the file is not valid JSON "
                + "(line 3, column 3: invalid value)\n")
    }
}
