import Foundation
import IdentityEmulator
import TestServers
import Testing

/// `msal` keeps signed-in users' tokens in the Secret Service when there is one, else in the 0600 file.
@Suite("msal's token cache: the keyring when there is one")
struct KeyringCommandTests {
    static let browser = ["BROWSER": CLISandbox.browser("MeganB@contoso.onmicrosoft.com", "Megan-Demo-Pass1")]

    @Test("auto without a Secret Service: the file, a notice the first time only, and --verbose says which")
    func fallbackToTheFile() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let auto = ["MSAL_CACHE_BACKEND": ""]
            let login = try await sandbox.msal(["login"], Self.browser.merging(auto) { $1 })
            #expect(login.status == 0, "\(login.stderr)")
            #expect(
                login.stderr.contains("msal: There is no keyring (Secret Service) here: no D-Bus session bus"),
                "\(login.stderr)")
            #expect(
                login.stderr.contains("msal: Your tokens are saved in \(sandbox.cachePath), a file only you can read."))
            let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.cachePath)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)

            let accounts = try await sandbox.msal(["accounts", "--verbose"], auto)
            #expect(accounts.status == 0, "\(accounts.stderr)")
            #expect(accounts.stdout.contains("MeganB@contoso.onmicrosoft.com"))
            #expect(!accounts.stderr.contains("There is no keyring"), "the notice is shown once")
            #expect(accounts.stderr.contains("msal: cache backend: auto (default)"), "\(accounts.stderr)")
            #expect(accounts.stderr.contains("msal: token cache storage: the file \(sandbox.cachePath)"))
        }
    }

    @Test(
        "auto with a Secret Service: a file cache moves into the keyring, no token stays on disk, and sign-in, refresh and logout work"
    )
    func keyring() async throws {
        try await PrivateKeyring.with { keyring in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                let sandbox = try CLISandbox(emulator: emulator)
                defer { sandbox.remove() }
                let login = try await sandbox.msal(["login"], Self.browser)
                #expect(login.status == 0, "\(login.stderr)")
                #expect(FileManager.default.fileExists(atPath: sandbox.cachePath))

                let bus = [
                    "MSAL_CACHE_BACKEND": "",
                    "DBUS_SESSION_BUS_ADDRESS": keyring.environment["DBUS_SESSION_BUS_ADDRESS"]!,
                ]
                let moved = try await sandbox.msal(["accounts", "--verbose"], bus)
                #expect(moved.status == 0, "\(moved.stderr)")
                #expect(
                    moved.stderr.contains(
                        "msal: moved the token cache from \(sandbox.cachePath) into the Secret Service."))
                #expect(moved.stderr.contains("msal: token cache storage: the Secret Service"), "\(moved.stderr)")
                #expect(moved.stdout.contains("MeganB@contoso.onmicrosoft.com"))
                #expect(!FileManager.default.fileExists(atPath: sandbox.cachePath))

                let refresh = try await sandbox.msal(["token", "--force-refresh", "--json"], bus)
                #expect(refresh.status == 0, "\(refresh.stderr)")
                let token = try #require(
                    (try JSONSerialization.jsonObject(with: Data(refresh.stdout.utf8)) as? [String: Any])?["token"]
                        as? String)
                let api1 = try await sandbox.msal(
                    ["login", "--scopes", "api://\(Directory.DemoIDs.api1)/ToDoList.Read"],
                    Self.browser.merging(bus) { $1 })
                #expect(api1.status == 0, "\(api1.stderr)")
                for file in try Self.files(under: sandbox.root) {
                    let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
                    #expect(!text.contains(token) && !text.contains("\"secret\""), "tokens in \(file.path)")
                }
                let explicit = try await sandbox.msal(
                    ["accounts"], bus.merging(["MSAL_CACHE_BACKEND": "keyring"]) { $1 })
                #expect(explicit.stdout.contains("MeganB@contoso.onmicrosoft.com"), "\(explicit.stderr)")

                let logout = try await sandbox.msal(["logout", "--all"], bus)
                #expect(logout.status == 0, "\(logout.stderr)")
                let nobody = try await sandbox.msal(["accounts"], bus)
                #expect(nobody.stderr.contains("Nobody is signed in"), "\(nobody.stderr)")
            }
        }
    }

    @Test("msal app token keeps the app's token in the keyring: the second run asks nobody, no token on disk")
    func appTokenInTheKeyring() async throws {
        try await PrivateKeyring.with { keyring in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                let sandbox = try CLISandbox(emulator: emulator)
                defer { sandbox.remove() }
                let environment = [
                    "MSAL_CACHE_BACKEND": "keyring",
                    "DBUS_SESSION_BUS_ADDRESS": keyring.environment["DBUS_SESSION_BUS_ADDRESS"]!,
                    "DAEMON_SECRET": Directory.DemoIDs.confidentialSecret,
                ]
                let arguments = [
                    "app", "token", "--client-id", Directory.DemoIDs.confidentialClient, "--tenant",
                    Directory.DemoIDs.contosoTenant, "--scopes", "https://graph.microsoft.com/.default",
                    "--client-secret-env", "DAEMON_SECRET", "--json",
                ]
                let first = try await CLICommandTests.json(sandbox.msal(arguments, environment))
                let second = try await CLICommandTests.json(sandbox.msal(arguments, environment))
                #expect(first["source"] as? String == "identity_provider")
                #expect(second["source"] as? String == "cache")
                let token = try #require(first["token"] as? String)
                #expect(second["token"] as? String == token)
                #expect(
                    try await CLICommandTests.grants(emulator) == ["client_credentials"], "one request for two runs")
                for file in try Self.files(under: sandbox.root) {
                    let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
                    #expect(!text.contains(token) && !text.contains("\"secret\""), "tokens in \(file.path)")
                }
            }
        }
    }

    @Test("keyring without a Secret Service, an unknown backend, and a keyring with a cache file are refused")
    func refusals() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let keyring = try await sandbox.msal(["accounts", "--cache-backend", "keyring"])
            #expect(keyring.status == 1)
            #expect(keyring.stderr.contains("No Secret Service to keep the token cache in"), "\(keyring.stderr)")
            let unknown = try await sandbox.msal(["accounts", "--cache-backend", "vault"])
            #expect(unknown.status == 2)
            #expect(unknown.stderr.contains("must be file, keyring or auto"), "\(unknown.stderr)")
            let both = try await sandbox.msal(["accounts", "--cache-backend", "keyring", "--cache", "/tmp/x.json"])
            #expect(both.status == 2, "\(both.stderr)")
            let config = try await sandbox.msal(
                ["accounts", "--verbose"], ["MSAL_CACHE_BACKEND": "", "MSAL_TOKEN_CACHE": sandbox.cachePath])
            #expect(config.stderr.contains("token cache storage: the file"), "an explicit cache file is that file")
        }
    }

    private static func files(under root: URL) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }
}
