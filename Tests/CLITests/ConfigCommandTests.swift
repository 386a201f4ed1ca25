import Foundation
import IdentityEmulator
import Testing

/// `msal config set/unset/list` edit and show the config file every command reads.
@Suite("msal config", .timeLimit(.minutes(5)))
struct ConfigCommandTests {
    @Test("set writes the file (0600) that the commands then read; list shows it; unset removes a key")
    func setListUnset() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let fromFile = ["MSAL_AUTHORITY": ""]
            let empty = try await sandbox.msal(["config", "list", "--json"])
            #expect(empty.status == 0, "\(empty.stderr)")
            #expect(empty.stdout == "{\n  \"file\" : \"\(sandbox.configFile.path)\",\n  \"settings\" : {}\n}\n")

            let set = try await sandbox.msal(["config", "set", "authority", sandbox.authority], fromFile)
            #expect(set.status == 0, "\(set.stderr)")
            let mode = try FileManager.default.attributesOfItem(atPath: sandbox.configFile.path)[.posixPermissions]
            #expect(mode as? Int == 0o600)
            let backend = try await sandbox.msal(["config", "set", "cache_backend", "file"], fromFile)
            #expect(backend.stdout == "authority      \(sandbox.authority)\ncache_backend  file\n", "\(backend.stdout)")

            let accounts = try await sandbox.msal(["accounts", "--verbose"], fromFile)
            #expect(
                accounts.stderr.contains("msal: authority: \(sandbox.authority) (config file)"), "\(accounts.stderr)")
            try await sandbox.loginAsMegan(fromFile)

            let overridden = try await sandbox.msal(["config", "list"])
            #expect(
                overridden.stderr.contains("MSAL_AUTHORITY is set, and overrides authority"), "\(overridden.stderr)")

            let unset = try await sandbox.msal(["config", "unset", "authority", "--json"])
            #expect(unset.status == 0, "\(unset.stderr)")
            let file = try JSONSerialization.jsonObject(with: Data(contentsOf: sandbox.configFile)) as? [String: String]
            #expect(file == ["cache_backend": "file"])
        }
    }

    @Test(
        "set refuses, with the reason and exit 2, what the file cannot take, leaving it as it was",
        arguments: [
            (["clientid", "x"], "unknown key \"clientid\" (known: authority, ca_bundle, cache_backend, client_id"),
            (["token_cache", "postgres://msal:hunter2@db/msal"], "keeps no secrets"),
            (["cache_backend", "sometimes"], "cache_backend must be file, keyring or auto"),
            (["authority", "not a url"], "is not an authority URL"),
            (["client_id", ""], "msal config unset client_id"),
            (["--authority", "http://x/y", "client_id", "c"], "takes no --authority"),
        ])
    func refusals(arguments: [String], reason: String) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("msal-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("msal/config.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let before = Data(#"{"client_id":"kept"}"#.utf8)
        try before.write(to: file)
        let result = try await CLIProcess.run(
            Binaries.url("msal"), ["config", "set"] + arguments,
            environment: ["HOME": root.path, "XDG_CONFIG_HOME": root.path])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(!result.stderr.contains("hunter2"))
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("a config file that cannot be read, or never ends, is an error that names it, not an empty file")
    func unreadableFile() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("msal-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("msal/config.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/dev/zero")
        let endless = try await CLIProcess.run(
            Binaries.url("msal"), ["config", "list"], environment: ["HOME": root.path, "XDG_CONFIG_HOME": root.path])
        #expect(endless.status == 2, "\(endless.stdout)\(endless.stderr)")
        #expect(endless.stderr == "msal: \(file.path) is larger than 16 MiB.\n")
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let folder = try await CLIProcess.run(
            Binaries.url("msal"), ["config", "list"], environment: ["HOME": root.path, "XDG_CONFIG_HOME": root.path])
        #expect(folder.status == 2, "\(folder.stdout)\(folder.stderr)")
        #expect(folder.stderr == "msal: \(file.path) cannot be read: Is a directory.\n")
    }
}
