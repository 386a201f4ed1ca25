import Foundation
import IdentityEmulator
import Testing

/// `msal login --username U --password-stdin` and `msal kube get-token --login ropc` against the emulator.
@Suite("msal login with a password, and kube get-token --login ropc")
struct PasswordLoginTests {
    static let ids = Directory.DemoIDs.self

    @Test("login --username --password-stdin signs in; the password is read from standard input and never shown")
    func login() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let (user, password) = CLICommandTests.megan
            let login = try await sandbox.msal(["login", "--username", user, "--password-stdin"], input: password)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(!(login.stdout + login.stderr).contains(password))
            let accounts = try await sandbox.msal(["accounts"])
            #expect(accounts.stdout.contains(user), "\(accounts.stdout)")

            let wrong = try await sandbox.msal(
                ["login", "--username", user, "--password-stdin"], input: "Wrong-Pass-9")
            #expect(wrong.status == 4)
            #expect(wrong.stderr.contains("AADSTS50126"), "\(wrong.stderr)")
            #expect(!wrong.stderr.contains("Wrong-Pass-9"))
        }
    }

    @Test("MSAL Python finds the account msal login --username wrote (account_source password) and its token")
    func pythonReadsPasswordSignIn() async throws {
        let tls = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tls) }
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: tls)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator, tenant: Self.ids.contosoTenant)
            defer { sandbox.remove() }
            let ca = try #require(emulator.caCertificateFile).path
            let (user, password) = CLICommandTests.megan
            let login = try await sandbox.msal(
                ["login", "--username", user, "--password-stdin"], ["MSAL_CA_BUNDLE": ca], input: password)
            #expect(login.status == 0, "\(login.stderr)")
            let cache = try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: sandbox.cachePath)))
            let accounts = ((cache as? [String: Any])?["Account"] as? [String: [String: Any]])?.values.map { $0 } ?? []
            #expect(accounts.map { $0["account_source"] as? String } == ["password"], "\(accounts)")
            let python = try await MSALPython.run([
                "silent-from-file", sandbox.cachePath, sandbox.authority, Self.ids.publicClient, ca,
            ])
            let found = python["accounts"] as? [[String: Any]] ?? []
            #expect(found.first?["username"] as? String == user, "\(python)")
            #expect((python["cached"] as? [String: Any])?["token_source"] as? String == "cache", "\(python)")
        }
    }

    @Test("a federated user is told to sign in in the browser (exit 3); --username needs --password-stdin")
    func refusals() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let federated = try await sandbox.msal(
                ["login", "--username", "pat@fabrikam.com", "--password-stdin"], input: "Pat-Pass-1")
            #expect(federated.status == 3)
            #expect(federated.stderr.contains("federated"), "\(federated.stderr)")
            let alone = try await sandbox.msal(["login", "--username", CLICommandTests.megan.0])
            #expect(alone.status == 2)
            #expect(alone.stderr.contains("--password-stdin"), "\(alone.stderr)")
            let empty = try await sandbox.msal(
                ["login", "--username", CLICommandTests.megan.0, "--password-stdin"], input: "")
            #expect(empty.status == 2)
        }
    }

    @Test("kube get-token --login ropc: kubelogin's AAD_USER_PRINCIPAL_* variables; kubectl then works")
    func kubeROPC() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await Kubectl.with(emulator, sandbox) { kubectl in
                let config = try kubectl.write(kubectl.kubeconfig(user: KubectlTests.getToken("ropc", emulator)))
                let missing = try await kubectl.getPods(config)
                #expect(missing.status != 0)
                #expect(missing.stderr.contains("AAD_USER_PRINCIPAL_NAME"), "\(missing.stderr)")
                let variables = [
                    "AAD_USER_PRINCIPAL_NAME": CLICommandTests.megan.0,
                    "AAD_USER_PRINCIPAL_PASSWORD": CLICommandTests.megan.1,
                ]
                let pods = try await kubectl.getPods(config, variables)
                #expect(pods.status == 0, "\(pods.stderr)")
                #expect(pods.stdout.contains(CLICommandTests.megan.0), "\(pods.stdout)")
                // The token is cached: a wrong password now is not even needed.
                let cached = try await kubectl.getPods(
                    config, variables.merging(["AAD_USER_PRINCIPAL_PASSWORD": "wrong"]) { $1 })
                #expect(cached.status == 0, "\(cached.stderr)")
            }
        }
    }
}
