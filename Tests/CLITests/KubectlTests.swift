import EmulatorAutomation
import Foundation
import IdentityEmulator
import Testing

/// `msal kube get-token` as a real kubectl's exec credential plugin, against a TLS Kubernetes API stub that accepts
/// only the emulator's tokens for the AKS server application; `msal kube convert-kubeconfig` on kubelogin's and the
/// legacy azure auth provider's kubeconfigs.
@Suite("msal kube with kubectl")
struct KubectlTests {
    static let ids = Directory.DemoIDs.self

    /// The exec arguments of a user as `az aks get-credentials` and kubelogin write them, on the emulator.
    static func getToken(_ login: String, _ emulator: RunningEmulator, extra: String = "") -> String {
        """
        exec:
          apiVersion: client.authentication.k8s.io/v1beta1
          command: msal
          args: [kube, get-token, --login, \(login), --server-id, \(ids.aksServer), --client-id, \(ids.aksClient),
                 --tenant-id, \(ids.contosoTenant), --authority-host, \(emulator.baseURL.absoluteString)/\(extra)]
        """
    }

    @Test(
        "devicecode: kubectl without a terminal is told how to sign in; signed in, get pods works; after msal logout it fails again"
    )
    func deviceCodeAndLogout() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await Kubectl.with(emulator, sandbox) { kubectl in
                let config = try kubectl.write(kubectl.kubeconfig(user: Self.getToken("devicecode", emulator)))
                let refused = try await kubectl.getPods(config)
                #expect(refused.status != 0)
                let login = try #require(
                    CLICommandTests.match(#"sign in first: msal (login [^\n]+)"#, in: refused.stderr),
                    "\(refused.stderr)")
                #expect(login.contains("--device-code") && login.contains("--client-id \(Self.ids.aksClient)"))

                let signingIn = try sandbox.start(login.split(separator: " ").map(String.init))
                let code = try await signingIn.waitForOutput { CLICommandTests.match(#"enter the code (\S+)"#, in: $0) }
                try await CLICommandTests.withHTTP { http in
                    try await DeviceLogin(base: emulator.baseURL, http: http).signIn(
                        code: code, username: CLICommandTests.megan.0, password: CLICommandTests.megan.1)
                }
                let signedIn = try await signingIn.finish()
                #expect(signedIn.status == 0, "\(signedIn.stderr)")

                let pods = try await kubectl.getPods(config)
                #expect(pods.status == 0, "\(pods.stderr)")
                #expect(pods.stdout.contains("hello-pod"), "\(pods.stdout)")
                #expect(pods.stdout.contains(CLICommandTests.megan.0), "\(pods.stdout)")

                // msal logout signs the user out of every app in the cache: the kubeconfig's client too.
                let logout = try await sandbox.msal(["logout"])
                #expect(logout.status == 0 && logout.stdout.contains(CLICommandTests.megan.0), "\(logout.stderr)")
                let after = try await kubectl.getPods(config)
                #expect(after.status != 0)
                #expect(after.stderr.contains("sign in first: msal login --device-code"), "\(after.stderr)")
            }
        }
    }

    @Test(
        "spn from AZURE_* variables; the same with kubelogin's AAD_SERVICE_PRINCIPAL_* names, in a v1 exec where kubectl speaks v1"
    )
    func servicePrincipal() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await Kubectl.with(emulator, sandbox) { kubectl in
                let config = try kubectl.write(kubectl.kubeconfig(user: Self.getToken("spn", emulator)))
                let azure = [
                    "AZURE_CLIENT_ID": Self.ids.confidentialClient, "AZURE_TENANT_ID": Self.ids.contosoTenant,
                    "AZURE_CLIENT_SECRET": Self.ids.confidentialSecret,
                ]
                let pods = try await kubectl.getPods(config, azure)
                #expect(pods.status == 0, "\(pods.stderr)")
                #expect(pods.stdout.contains(Self.ids.confidentialClient), "\(pods.stdout)")

                // With kubelogin's names; in a v1 exec where kubectl speaks v1.
                let kubelogin = [
                    "AAD_SERVICE_PRINCIPAL_CLIENT_ID": Self.ids.confidentialClient,
                    "AAD_SERVICE_PRINCIPAL_CLIENT_SECRET": Self.ids.confidentialSecret,
                ]
                let v1 = try kubectl.write(
                    kubectl.kubeconfig(
                        user: Self.getToken("spn", emulator).replacingOccurrences(of: "v1beta1", with: "v1")
                            + "\n  interactiveMode: Never"),
                    name: "kubeconfig-v1")
                let aliased = try await kubectl.getPods(try await Kubectl.speaksV1() ? v1 : config, kubelogin)
                #expect(aliased.status == 0, "\(aliased.stderr)")
                #expect(aliased.stdout.contains(Self.ids.confidentialClient), "\(aliased.stdout)")

                // In a cache of its own: the token above is cached, and would be answered without the secret.
                let wrong = try await kubectl.getPods(
                    config,
                    azure.merging([
                        "AZURE_CLIENT_SECRET": "wrong",
                        "MSAL_TOKEN_CACHE": sandbox.root.appendingPathComponent("other-cache.json").path,
                    ]) { $1 })
                #expect(wrong.status != 0)
                #expect(wrong.stderr.contains("AADSTS7000215"), "\(wrong.stderr)")
            }
        }
    }

    @Test("msi: the host's managed identity gets the cluster's token")
    func managedIdentity() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await Kubectl.with(emulator, sandbox) { kubectl in
                let config = try kubectl.write(
                    kubectl.kubeconfig(
                        user: """
                            exec:
                              apiVersion: client.authentication.k8s.io/v1beta1
                              command: msal
                              args: [kube, get-token, --login, msi, --server-id, \(Self.ids.aksServer)]
                            """))
                let pods = try await kubectl.getPods(
                    config, try #require(emulator.managedIdentityEnvironment(host: "vm-1")))
                #expect(pods.status == 0, "\(pods.stderr)")
                #expect(pods.stdout.contains("hello-pod"), "\(pods.stdout)")
            }
        }
    }

    @Test("convert-kubeconfig: a kubelogin user and a legacy azure auth-provider user run msal; kubectl then works")
    func convertKubeconfig() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await Kubectl.with(emulator, sandbox) { kubectl in
                let spn = [
                    "AZURE_CLIENT_ID": Self.ids.confidentialClient, "AZURE_TENANT_ID": Self.ids.contosoTenant,
                    "AZURE_CLIENT_SECRET": Self.ids.confidentialSecret,
                    "AZURE_AUTHORITY_HOST": emulator.baseURL.absoluteString + "/",
                ]
                let kubelogin = try kubectl.write(
                    kubectl.kubeconfig(
                        user: """
                            exec:
                              apiVersion: client.authentication.k8s.io/v1beta1
                              command: kubelogin
                              args:
                              - get-token
                              - --environment
                              - AzurePublicCloud
                              - --server-id
                              - \(Self.ids.aksServer)
                              - --client-id
                              - \(Self.ids.aksClient)
                              - --tenant-id
                              - \(Self.ids.contosoTenant)
                              - --login
                              - devicecode
                              installHint: install kubelogin
                            """), name: "kubelogin-config")
                let legacy = try kubectl.write(
                    kubectl.kubeconfig(
                        user: """
                            auth-provider:
                              name: azure
                              config:
                                apiserver-id: \(Self.ids.aksServer)
                                client-id: \(Self.ids.aksClient)
                                tenant-id: \(Self.ids.contosoTenant)
                                environment: AzurePublicCloud
                                config-mode: "1"
                            """), name: "legacy-config")
                for file in [kubelogin, legacy] {
                    let before = try await kubectl.getPods(file, spn)
                    #expect(before.status != 0, "\(file) worked before its conversion")
                    let converted = try await sandbox.msal(
                        ["kube", "convert-kubeconfig", "-l", "spn"], ["KUBECONFIG": file])
                    #expect(converted.status == 0, "\(converted.stderr)")
                    #expect(converted.stderr.contains("converted aks-user"), "\(converted.stderr)")
                    var info = stat()
                    #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
                    let text = try String(contentsOfFile: file, encoding: .utf8)
                    #expect(
                        text.contains("command: msal") && !text.contains("kubelogin") && !text.contains("auth-provider")
                    )
                    #expect(text.contains(kubectl.cluster.url.absoluteString), "the cluster is kept")
                    let pods = try await kubectl.getPods(file, spn)
                    #expect(pods.status == 0, "\(file): \(pods.stderr)")
                    #expect(pods.stdout.contains(Self.ids.confidentialClient), "\(pods.stdout)")
                }
                let endless = try await sandbox.msal(["kube", "convert-kubeconfig", "--kubeconfig", "/dev/zero"], [:])
                #expect(endless.status == 2)
                #expect(endless.stderr == "msal: The kubeconfig /dev/zero is larger than 16 MiB.\n")
                let none = sandbox.root.appendingPathComponent("no-kubeconfig").path
                let missing = try await sandbox.msal(["kube", "convert-kubeconfig", "--kubeconfig", none], [:])
                #expect(missing.status == 2)
                #expect(missing.stderr == "msal: The kubeconfig \(none) does not exist.\n")
            }
        }
    }
}
