import Foundation
import IdentityEmulator
import Testing

@Suite("Start, directory and configuration")
struct StartupAndDirectoryTests {
    @Test("starts on an ephemeral port, reports its URL and shuts down cleanly")
    func startsOnEphemeralPort() async throws {
        try await TestEmulator.with { emulator in
            #expect(emulator.running.port > 0)
            #expect(emulator.running.port != 8400)
            #expect(emulator.base == "http://127.0.0.1:\(emulator.running.port)")
            let result = try await emulator.get("/common/v2.0/.well-known/openid-configuration")
            #expect(result.status == 200)
        }
    }

    @Test("the CA goes into a new 0700 folder; a folder others can write to is refused")
    func privateTLSFolder() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let fresh = base.appendingPathComponent("fresh")
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: fresh)) { running in
            #expect(running.caCertificateFile?.deletingLastPathComponent().path == fresh.path)
        }
        let mode = try FileManager.default.attributesOfItem(atPath: fresh.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)

        let shared = base.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: shared.path)  // past the umask
        let error = await #expect(throws: IdentityEmulator.StartError.self) {
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: shared)) { _ in }
        }
        #expect(error?.description.contains("--tls-directory") == true)
        #expect(!FileManager.default.fileExists(atPath: shared.appendingPathComponent("identity-emulator-ca.pem").path))
    }

    @Test("the admin API lists tenants, users with their demo passwords, and applications")
    func directoryListing() async throws {
        try await TestEmulator.with { emulator in
            let json = try await emulator.get("/_emulator/directory").json
            let tenants = try #require(json["tenants"] as? [any Sendable]).compactMap { $0 as? [String: any Sendable] }
            let users = try #require(json["users"] as? [any Sendable]).compactMap { $0 as? [String: any Sendable] }
            let apps = try #require(json["applications"] as? [any Sendable]).compactMap {
                $0 as? [String: any Sendable]
            }
            #expect(
                tenants.contains {
                    $0["domain"] as? String == "contoso.onmicrosoft.com" && $0["kind"] as? String == "workforce"
                })
            #expect(tenants.contains { $0["kind"] as? String == "external" })
            #expect(users.count >= 3)
            let megan = try #require(
                users.first { $0["userPrincipalName"] as? String == "MeganB@contoso.onmicrosoft.com" })
            #expect(megan["password"] as? String == "Megan-Demo-Pass1")
            #expect((megan["guestOf"] as? [any Sendable])?.isEmpty == false)
            #expect(
                apps.contains { $0["displayName"] as? String == "msal-demo" && $0["kind"] as? String == "publicClient" }
            )
            #expect(apps.contains { $0["kind"] as? String == "confidentialClient" && $0["secret"] != nil })
            #expect(apps.filter { $0["familyId"] as? String == "1" }.count == 2)
            let api1 = try #require(apps.first { $0["displayName"] as? String == "ToDoList API 1" })
            #expect(api1["identifierUri"] as? String == "api://\(Directory.DemoIDs.api1)")
            #expect(api1["scopes"] as? [String] == ["ToDoList.Read", "ToDoList.ReadWrite"])
        }
    }

    @Test("a configuration file replaces the built-in directory")
    func configurationReplacesDirectory() async throws {
        let json = """
            {"tenants":[{"id":"11111111-2222-4333-8444-555555555555","domain":"tailspin.onmicrosoft.com","displayName":"Tailspin","kind":"workforce"}],
             "users":[{"id":"21111111-2222-4333-8444-555555555555","tenant":"11111111-2222-4333-8444-555555555555","userPrincipalName":"ann@tailspin.onmicrosoft.com","password":"pw-ann-1","displayName":"Ann"}],
             "applications":[{"clientId":"app-1","displayName":"Tailspin CLI","tenant":"11111111-2222-4333-8444-555555555555","kind":"publicClient","redirectUris":["http://localhost"]},
                             {"clientId":"00000003-0000-0000-c000-000000000000","displayName":"Graph","tenant":"11111111-2222-4333-8444-555555555555","kind":"api","identifierUri":"https://graph.microsoft.com","scopes":["User.Read"]}]}
            """
        let directory = try Directory.decode(Data(json.utf8))
        let configure: (inout EmulatorConfiguration) -> Void = { $0.directory = directory }
        try await TestEmulator.with(configure) { emulator in
            let own = try await emulator.get("/tailspin.onmicrosoft.com/v2.0/.well-known/openid-configuration")
            let demo = try await emulator.get("/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration")
            #expect(own.status == 200)
            #expect(demo.status == 400)
        }
    }

    @Test(
        "a bad configuration names the bad field",
        arguments: [
            (#"{"tenants":[],"users":[],"applications":[]}"#, "tenants"),
            (
                #"{"tenants":[{"id":"x","domain":"a.b","displayName":"A","kind":"workforce"}],"users":[],"applications":[]}"#,
                "tenants[0].id"
            ),
            (
                #"{"tenants":[{"id":"11111111-2222-4333-8444-555555555555","domain":"a.b","displayName":"A","kind":"nope"}],"users":[],"applications":[]}"#,
                "tenants[0].kind"
            ),
            (
                #"{"tenants":[{"id":"11111111-2222-4333-8444-555555555555","domain":"a.b","displayName":"A","kind":"workforce"}],"users":[{"id":"21111111-2222-4333-8444-555555555555","tenant":"31111111-2222-4333-8444-555555555555","userPrincipalName":"a@a.b","displayName":"A"}],"applications":[]}"#,
                "users[0].tenant"
            ),
            (
                #"{"tenants":[{"id":"11111111-2222-4333-8444-555555555555","domain":"a.b","displayName":"A","kind":"workforce"}],"users":[{"id":"21111111-2222-4333-8444-555555555555","tenant":"11111111-2222-4333-8444-555555555555","displayName":"A"}],"applications":[]}"#,
                "users[0].userPrincipalName"
            ),
            (
                #"{"tenants":[{"id":"11111111-2222-4333-8444-555555555555","domain":"a.b","displayName":"A","kind":"workforce"}],"users":[],"applications":[{"clientId":"c","displayName":"C","tenant":"11111111-2222-4333-8444-555555555555","kind":"confidentialClient"}]}"#,
                "applications[0].secret"
            ),
        ])
    func badConfigurationNamesField(json: String, field: String) throws {
        let error = try #require(throws: DirectoryConfigurationError.self) { try Directory.decode(Data(json.utf8)) }
        #expect(error.field == field)
        #expect(error.description.contains(field))
    }

    @Test(
        "a file that is not JSON is refused with the line and column (in characters) where it stops being JSON",
        arguments: [
            ("not json", "line 1, column 2: invalid value"),
            ("{\n  \"tenants\": [],\n  users: []\n}", "line 3, column 3:"),
            ("{\"tenants\": [", "line 1, column 14: the text ends early"),
            ("{\"domain\": \"café\", x}", "line 1, column 20:"),
            ("", "line 1, column 1: the text ends early"),
        ])
    func notJSONSaysWhere(json: String, position: String) throws {
        let error = try #require(throws: DirectoryConfigurationError.self) { try Directory.decode(Data(json.utf8)) }
        #expect(error.field == "$")
        #expect(error.description.hasPrefix("invalid directory configuration: the file is not valid JSON ("))
        #expect(error.description.contains(position), "\(error)")
        #expect(!error.description.contains("$"))
    }

    @Test("a port past 65535 or below 0 is refused before anything starts", arguments: [65536, 99999, -1])
    func portOutOfRange(port: Int) async throws {
        let error = try await #require(throws: IdentityEmulator.StartError.self) {
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: port)) { _ in }
        }
        #expect(error.description == "port must be 0–65535, not \(port)")
    }

    @Test("a port in use is refused naming the address, and how to choose another")
    func portInUse() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { first in
            let error = try await #require(throws: IdentityEmulator.StartError.self) {
                try await IdentityEmulator.withRunning(EmulatorConfiguration(port: first.port)) { _ in }
            }
            #expect(
                error.description
                    == "127.0.0.1:\(first.port) is already in use by another program: stop it, or choose another port "
                    + "with --port (--port 0 picks a free one)")
        }
    }
}
