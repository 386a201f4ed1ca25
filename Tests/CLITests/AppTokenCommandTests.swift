import AsyncHTTPClient
import Foundation
import IdentityEmulator
import NIOCore
import Testing

@Suite("msal app token")
struct AppTokenCommandTests {
    static let ids = Directory.DemoIDs.self

    @Test("a certificate file, a secret from the environment and a federated token file each get an app token")
    func credentials() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let common = [
                "app", "token", "--client-id", Self.ids.confidentialClient, "--tenant", Self.ids.contosoTenant,
            ]

            let pem = sandbox.root.appendingPathComponent("daemon.pem")
            try Data((Self.ids.daemonPrivateKeyPEM + "\n" + Self.ids.daemonCertificatePEM).utf8).write(to: pem)
            let certificate = try await sandbox.msal(
                common + ["--scopes", "api://\(Self.ids.api1)/.default", "--certificate", pem.path, "--json"])
            #expect(certificate.status == 0, "\(certificate.stderr)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(certificate.stdout.utf8)) as? [String: Any])
            #expect(json["roles"] as? [String] == ["ToDoList.Read.All"])
            #expect(json["tenant_id"] as? String == Self.ids.contosoTenant)
            #expect(json["source"] as? String == "identity_provider")
            #expect((json["token"] as? String)?.hasPrefix("eyJ") == true)

            let secret = try await sandbox.msal(
                common + ["--scopes", "https://graph.microsoft.com/.default", "--client-secret-env", "DAEMON_SECRET"],
                ["DAEMON_SECRET": Self.ids.confidentialSecret])
            #expect(secret.status == 0, "\(secret.stderr)")
            #expect(secret.stdout.hasPrefix("eyJ") && secret.stdout.hasSuffix("\n"))

            let minted = try await Self.mintWorkloadToken(emulator)
            let tokenFile = sandbox.root.appendingPathComponent("azure-identity-token")
            try Data(minted.utf8).write(to: tokenFile)
            let federated = try await sandbox.msal(
                common + ["--scopes", "https://graph.microsoft.com/.default", "--federated-token-file", tokenFile.path])
            #expect(federated.status == 0, "\(federated.stderr)")
        }
    }

    @Test("usage errors exit 2; a wrong secret exits 4 without printing it; an unset variable is named")
    func errors() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let common = [
                "app", "token", "--client-id", Self.ids.confidentialClient, "--tenant", Self.ids.contosoTenant,
                "--scopes", "https://graph.microsoft.com/.default",
            ]
            let none = try await sandbox.msal(common)
            #expect(none.status == 2)
            #expect(none.stderr.contains("exactly one credential"))
            let two = try await sandbox.msal(
                common + ["--client-secret-env", "X", "--federated-token-file", "/nonexistent"])
            #expect(two.status == 2)
            let unset = try await sandbox.msal(common + ["--client-secret-env", "NOT_SET_ANYWHERE"])
            #expect(unset.status == 2, "\(unset.stderr)")
            #expect(unset.stderr.contains("NOT_SET_ANYWHERE"))
            let noClient = try await sandbox.msal(
                [
                    "app", "token", "--tenant", Self.ids.contosoTenant, "--scopes", "x/.default", "--client-secret-env",
                    "S",
                ],
                ["S": "whatever"])
            #expect(noClient.status == 2)
            #expect(noClient.stderr.contains("--client-id"))

            let secret = "wrong-secret-6c1d0a"
            let wrong = try await sandbox.msal(
                common + ["--client-secret-env", "DAEMON_SECRET", "--verbose"], ["DAEMON_SECRET": secret])
            #expect(wrong.status == 4, "\(wrong.stderr)")
            #expect(wrong.stderr.contains("AADSTS7000215"))
            #expect(!wrong.stderr.contains(secret) && !wrong.stdout.contains(secret))
        }
    }

    @Test(
        "a secret, a certificate or a federated token file: the second run takes the token from the cache file, beside a signed-in user"
    )
    func cachedAcrossRuns() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await sandbox.loginAsMegan()
            let pem = sandbox.root.appendingPathComponent("daemon.pem")
            try Data((Self.ids.daemonPrivateKeyPEM + "\n" + Self.ids.daemonCertificatePEM).utf8).write(to: pem)
            let tokenFile = sandbox.root.appendingPathComponent("azure-identity-token")
            try Data(try await Self.mintWorkloadToken(emulator).utf8).write(to: tokenFile)
            let credentials = [
                ["--client-secret-env", "DAEMON_SECRET"], ["--certificate", pem.path],
                ["--federated-token-file", tokenFile.path],
            ]
            for (index, credential) in credentials.enumerated() {
                // The first shares the signed-in user's file; the others have a file of their own.
                let file =
                    index == 0 ? sandbox.cachePath : sandbox.root.appendingPathComponent("app-\(index).json").path
                let arguments =
                    [
                        "app", "token", "--client-id", Self.ids.confidentialClient, "--tenant", Self.ids.contosoTenant,
                        "--scopes", "https://graph.microsoft.com/.default", "--cache", file, "--json",
                    ] + credential
                let first = try await CLICommandTests.json(
                    sandbox.msal(arguments, ["DAEMON_SECRET": Self.ids.confidentialSecret]))
                let second = try await CLICommandTests.json(
                    sandbox.msal(arguments, ["DAEMON_SECRET": Self.ids.confidentialSecret]))
                #expect(first["source"] as? String == "identity_provider", "\(credential[0])")
                #expect(second["source"] as? String == "cache", "\(credential[0])")
                #expect(second["token"] as? String == first["token"] as? String)
                #expect(
                    try await CLICommandTests.grants(emulator).filter { $0 == "client_credentials" }.count == index + 1,
                    "\(credential[0]): one request for two runs")
                let cached = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
                        as? [String: Any])
                let tokens = (cached["AccessToken"] as? [String: [String: Any]] ?? [:]).values
                #expect(
                    tokens.contains {
                        $0["client_id"] as? String == Self.ids.confidentialClient
                            && $0["realm"] as? String == Self.ids.contosoTenant
                    }, "\(credential[0]): the app token is filed under the app's client id and tenant")
            }
            let user = try await CLICommandTests.json(sandbox.msal(["token", "--json"]))
            #expect(user["source"] as? String == "cache" && user["account"] as? String == CLICommandTests.megan.0)
            let accounts = try await sandbox.msal(["accounts", "--json"])
            let listed = try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]]
            #expect(
                listed?.map { $0["username"] as? String } == [CLICommandTests.megan.0],
                "an app token is no account: \(accounts.stdout)\(accounts.stderr)")
            let forced = try await CLICommandTests.json(
                sandbox.msal(
                    [
                        "app", "token", "--client-id", Self.ids.confidentialClient, "--tenant", Self.ids.contosoTenant,
                        "--scopes", "https://graph.microsoft.com/.default", "--client-secret-env", "DAEMON_SECRET",
                        "--force-refresh", "--json",
                    ], ["DAEMON_SECRET": Self.ids.confidentialSecret]))
            #expect(forced["source"] as? String == "identity_provider")
        }
    }

    /// A projected service-account token from the emulator's workload issuer, as a cluster would mount it.
    static func mintWorkloadToken(_ emulator: RunningEmulator) async throws -> String {
        try await CLICommandTests.withHTTP { http in
            var request = HTTPClientRequest(
                url: emulator.baseURL.appendingPathComponent("_emulator/workload/token").absoluteString)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: #"{"subject":"system:serviceaccount:demo:daemon"}"#))
            let response = try await http.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
            return try #require(json["token"] as? String)
        }
    }
}
