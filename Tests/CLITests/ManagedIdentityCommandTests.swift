import Foundation
import IdentityEmulator
import Testing

/// `msal app token --managed-identity` and `msal device-info` with the variables Azure sets on the emulator's hosts.
@Suite("msal app token --managed-identity")
struct ManagedIdentityCommandTests {
    static let ids = Directory.DemoIDs.self

    @Test("each identity selector, --resource or --scopes …/.default; device-info names the source; bad usage exits 2")
    func managedIdentity() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let vm = try #require(emulator.managedIdentityEnvironment(host: "vm-1"))
            let system = try await sandbox.msal(
                ["app", "token", "--managed-identity", "--resource", "https://graph.microsoft.com", "--json"], vm)
            #expect(system.status == 0, "\(system.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(system.stdout.utf8)) as? [String: Any])
            #expect(json["managed_identity_source"] as? String == "imds")
            #expect(json["roles"] as? [String] == ["User.Read.All"])
            #expect(json["tenant_id"] as? String == Self.ids.contosoTenant)

            for selector in [
                ["--client-id", Self.ids.userAssignedIdentity], ["--resource-id", Self.ids.userAssignedResourceID],
                ["--object-id", Self.ids.userAssignedObjectID],
            ] {
                let user = try await sandbox.msal(
                    ["app", "token", "--managed-identity", "--scopes", "api://\(Self.ids.api1)/.default", "--json"]
                        + selector, try #require(emulator.managedIdentityEnvironment(host: "app-1")))
                #expect(user.status == 0, "\(selector): \(user.stderr)")
                #expect(user.stdout.contains("ToDoList.Read.All"), "\(selector)")
            }

            let info = try await sandbox.msal(["device-info"], vm)
            #expect(info.stdout.contains("IMDS at \(emulator.baseURL.absoluteString)/hosts/vm-1/"), "\(info.stdout)")
            let shell = try await sandbox.msal(
                ["device-info", "--json"], try #require(emulator.managedIdentityEnvironment(host: "shell-1")))
            #expect(shell.stdout.contains("\"managed_identity_source\" : \"cloud_shell\""), "\(shell.stdout)")

            let unknown = try await sandbox.msal(
                [
                    "app", "token", "--managed-identity", "--client-id", "00000000-1111-4222-8333-444444444444",
                    "--resource", "https://graph.microsoft.com",
                ], vm)
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("Identity not found"), "\(unknown.stderr)")
            for usage in [
                ["app", "token", "--managed-identity"],
                ["app", "token", "--managed-identity", "--resource", "a", "--scopes", "b/.default"],
                ["app", "token", "--managed-identity", "--resource", "a", "--tenant", "contoso.onmicrosoft.com"],
                ["app", "token", "--managed-identity", "--resource", "a", "--client-secret-env", "X"],
            ] {
                let result = try await sandbox.msal(usage, vm)
                #expect(result.status == 2, "\(usage): \(result.stderr)")
            }
        }
    }

    @Test(
        "a managed identity's token is cached in the file: the second run asks IMDS nothing; each identity has its own")
    func cachedAcrossRuns() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let vm = try #require(emulator.managedIdentityEnvironment(host: "vm-1"))
            let file = sandbox.root.appendingPathComponent("vm-cache.json").path
            let imds = {
                try await CLICommandTests.served(emulator, path: "/hosts/vm-1/metadata/identity/oauth2/token")
            }
            let system = ["app", "token", "--managed-identity", "--resource", "https://graph.microsoft.com"]
            let user = [
                "app", "token", "--managed-identity", "--client-id", Self.ids.userAssignedIdentity, "--resource",
                "api://\(Self.ids.api1)",
            ]
            for (index, arguments) in [system, user].enumerated() {
                let first = try await CLICommandTests.json(sandbox.msal(arguments + ["--cache", file, "--json"], vm))
                let second = try await CLICommandTests.json(sandbox.msal(arguments + ["--cache", file, "--json"], vm))
                #expect(first["source"] as? String == "identity_provider", "\(arguments)")
                #expect(second["source"] as? String == "cache", "\(arguments)")
                #expect(second["token"] as? String == first["token"] as? String)
                #expect(try await imds().count == index + 1, "one request to IMDS for two runs")
            }
            let cached = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
            let tokens = (cached["AccessToken"] as? [String: [String: Any]] ?? [:]).values
            #expect(
                Set(
                    tokens.compactMap {
                        $0["realm"] as? String == "managed_identity" ? $0["client_id"] as? String : nil
                    })
                    == [Self.ids.userAssignedIdentity, "system_assigned_managed_identity"], "\(cached)")
        }
    }
}
