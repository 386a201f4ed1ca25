import Foundation
import IdentityEmulator
import MSAL
import TestServers

/// A real `kubectl` (the first on PATH: Debian's `kubernetes-client`, or another) run against a
/// ``KubernetesAPIStub`` with a kubeconfig a test writes, its user's exec plugin `msal` from this build.
struct Kubectl: Sendable {
    let sandbox: CLISandbox
    let cluster: KubernetesAPIStub.Running

    /// `kubectl` on PATH.
    static var path: String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/kubectl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `body` with a Kubernetes API stub that accepts the emulator's tokens for the AKS server application
    /// issued in Contoso, and a kubectl for it.
    static func with(
        _ emulator: RunningEmulator, _ sandbox: CLISandbox, _ body: @Sendable (Kubectl) async throws -> Void
    ) async throws {
        var configuration = try AccessTokenValidator.Configuration(
            authority: Authority(emulator.authority(Directory.DemoIDs.contosoTenant).absoluteString),
            audiences: [Directory.DemoIDs.aksServer])
        // As AKS: who may do what is the cluster's RBAC, not the token's scopes or roles.
        configuration.allowsAuthorizationByACL = true
        try await KubernetesAPIStub.withRunning(
            validator: AccessTokenValidator(configuration: configuration), folder: sandbox.root
        ) { cluster in
            try await body(Kubectl(sandbox: sandbox, cluster: cluster))
        }
    }

    /// A kubeconfig whose one context is the stub with the user `user` (YAML under `user:`, indented by 4).
    func kubeconfig(user: String) -> String {
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: aks
          cluster:
            server: \(cluster.url.absoluteString)
            certificate-authority: \(cluster.certificateAuthorityPath)
        contexts:
        - name: aks
          context:
            cluster: aks
            user: aks-user
        current-context: aks
        users:
        - name: aks-user
          user:
        \(user.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }.joined(separator: "\n"))
        """
    }

    /// Writes `text` as a kubeconfig in the sandbox and returns its path.
    func write(_ text: String, name: String = "kubeconfig") throws -> String {
        let path = sandbox.root.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `kubectl --kubeconfig FILE get pods`, with this build's `msal` first on PATH and the sandbox's environment.
    func getPods(_ kubeconfig: String, _ extra: [String: String] = [:]) async throws -> CLIResult {
        var environment = sandbox.environment(extra)
        environment["PATH"] = Binaries.url("msal").deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        return try await CLIProcess.run(
            URL(fileURLWithPath: try Self.required()), ["--kubeconfig", kubeconfig, "get", "pods"],
            environment: environment)
    }

    /// Whether this kubectl takes `client.authentication.k8s.io/v1` exec plugins (1.22 and later; Debian's
    /// kubernetes-client, 1.20, takes v1beta1 only).
    static func speaksV1() async throws -> Bool {
        let version = try await CLIProcess.run(
            URL(fileURLWithPath: try required()), ["version", "--client", "-o", "json"],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        let object = try JSONSerialization.jsonObject(with: Data(version.stdout.utf8)) as? [String: Any]
        let minor = ((object?["clientVersion"] as? [String: Any])?["minor"] as? String)?.prefix { $0.isNumber }
        return Int(minor ?? "") ?? 0 >= 22
    }

    /// kubectl's path, or a failure saying how to get it.
    static func required() throws -> String {
        guard let path else {
            throw CLITestFailure("no kubectl on PATH: scripts/test installs Debian's kubernetes-client")
        }
        return path
    }
}
