import Foundation
import Testing
import Yams

@testable import MSALCommandLine

/// `msal kube convert-kubeconfig`'s rewriting, on kubeconfigs as kubelogin and the legacy azure provider left them.
@Suite("msal kube convert-kubeconfig: the rewriting")
struct KubeconfigConversionTests {
    static let server = "6dae42f8-4368-4678-94ff-3960e28e3630"

    static let kubeconfig = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: aks
          cluster:
            server: https://aks.example:443
        users:
        - name: kubelogin-user
          user:
            exec:
              apiVersion: client.authentication.k8s.io/v1beta1
              command: /usr/local/bin/kubelogin
              args: [get-token, --environment, AzurePublicCloud, --server-id, \(server), --client-id, app,
                     --tenant-id, contoso, --login=spn, --client-secret, s3cret]
              env:
              - name: KEEP
                value: "1"
              installHint: install kubelogin
        - name: legacy-user
          user:
            auth-provider:
              name: azure
              config:
                apiserver-id: \(server)
                client-id: app
                tenant-id: contoso
                environment: AzureUSGovernmentCloud
        - name: certificate-user
          user:
            client-certificate-data: Zm9v
        """

    static func user(_ name: String, in text: String) throws -> Node {
        let users = try #require(try Yams.compose(yaml: text)?["users"]?.sequence)
        return try #require(users.first { $0["name"]?.string == name }?["user"])
    }

    static func arguments(_ user: Node) -> [String] {
        user["exec"]?["args"]?.sequence?.compactMap(\.string) ?? []
    }

    @Test("kubelogin's arguments are kept, the secret moves to the exec's environment, other users stay as they were")
    func kubelogin() throws {
        let result = try KubeconfigConversion.convert(Self.kubeconfig, login: nil)
        #expect(result.converted == ["kubelogin-user", "legacy-user"])
        let user = try Self.user("kubelogin-user", in: result.text)
        #expect(user["exec"]?["command"]?.string == "msal")
        #expect(
            Self.arguments(user) == [
                "kube", "get-token", "--login", "spn", "--environment", "AzurePublicCloud", "--server-id", Self.server,
                "--client-id", "app", "--tenant-id", "contoso",
            ])
        #expect(!result.text.contains("bin/kubelogin") && !result.text.contains("installHint"))
        let variables = user["exec"]?["env"]?.sequence?.compactMap { entry in
            entry["name"]?.string.map { ($0, entry["value"]?.string ?? "") }
        }
        #expect(variables?.map(\.0) == ["KEEP", "AAD_SERVICE_PRINCIPAL_CLIENT_SECRET"])
        #expect(variables?.last?.1 == "s3cret")
        #expect(user["exec"]?["apiVersion"]?.string == "client.authentication.k8s.io/v1beta1")
        #expect(try Self.user("certificate-user", in: result.text)["client-certificate-data"]?.string == "Zm9v")
        #expect(result.text.contains("server: https://aks.example:443"))
    }

    @Test("the azure auth provider becomes an exec from its settings; -l sets every converted user's login")
    func legacyProvider() throws {
        let result = try KubeconfigConversion.convert(Self.kubeconfig, login: "devicecode")
        let user = try Self.user("legacy-user", in: result.text)
        #expect(user["auth-provider"] == nil)
        #expect(
            Self.arguments(user) == [
                "kube", "get-token", "--login", "devicecode", "--server-id", Self.server, "--client-id", "app",
                "--tenant-id", "contoso", "--environment", "AzureUSGovernmentCloud",
            ])
        #expect(
            Self.arguments(try Self.user("kubelogin-user", in: result.text)).prefix(4) == [
                "kube", "get-token", "--login", "devicecode",
            ])
    }

    @Test("converting twice changes nothing more; a kubeconfig without such users is left as it was")
    func idempotent() throws {
        let once = try KubeconfigConversion.convert(Self.kubeconfig, login: nil)
        let twice = try KubeconfigConversion.convert(once.text, login: nil)
        #expect(twice.text == once.text)
        let plain = "apiVersion: v1\nusers:\n- name: u\n  user:\n    token: abc\n"
        #expect(try KubeconfigConversion.convert(plain, login: nil) == .init(text: plain, converted: []))
    }

    @Test(
        "a kubelogin flag msal does not take, a mode it does not support, or a file that is not a kubeconfig is refused"
    )
    func refusals() {
        let pop = Self.kubeconfig.replacingOccurrences(of: "--login=spn", with: "--pop-enabled")
        let popError = #expect(throws: UsageError.self) { try KubeconfigConversion.convert(pop, login: nil) }
        #expect(popError?.description.contains("kubelogin-user") == true)
        #expect(popError?.description.contains("--pop-enabled") == true)
        let azurecli = Self.kubeconfig.replacingOccurrences(of: "--login=spn", with: "--login=azurecli")
        #expect(throws: UsageError.self) { try KubeconfigConversion.convert(azurecli, login: nil) }
        #expect(throws: UsageError.self) { try KubeconfigConversion.convert("- just\n- a list\n", login: nil) }
        #expect(throws: UsageError.self) { try KubeconfigConversion.convert("key: [unclosed", login: nil) }
    }
}
