import Foundation
import IdentityEmulator
import Testing

/// azure-identity's `ManagedIdentityCredential` and MSAL Python's `ManagedIdentityClient` against the emulator's
/// Azure hosts, with the variables Azure sets on each: both get the host's identity's token, then the same token
/// from their cache. (MSAL Python has no Cloud Shell source; azure-identity does.)
@Suite("Microsoft's SDKs and managed identity", .timeLimit(.minutes(5)))
struct ManagedIdentitySDKTests {
    static let script = MSALPython.repository.appendingPathComponent(
        "Tests/Interop/managed_identity_against_emulator.py"
    )
    .path
    static let graph = "https://graph.microsoft.com"

    static let cases: [(sdk: String, host: String)] =
        ["vm-1", "app-1", "sf-1", "ml-1", "arc-1"].flatMap { [("msal", $0), ("azure-identity", $0)] }
        + [("azure-identity", "shell-1")]

    @Test("system-assigned: the host's identity, then the SDK's cache", arguments: cases)
    func systemAssigned(_ run: (sdk: String, host: String)) async throws {
        try await Self.withAzureHosts { emulator, ca, keys in
            let report = try await Self.run(run.sdk, host: run.host, emulator: emulator, ca: ca, keys: keys)
            let claims = try #require(report["claims"] as? [String: Any])
            if run.host == "shell-1" {
                #expect(claims["upn"] as? String == "MeganB@contoso.onmicrosoft.com")
            } else {
                let identity = try #require(
                    emulator.directory.managedIdentities.first {
                        $0.clientId == Directory.DemoIDs.systemAssignedIdentities[run.host]
                    })
                #expect(claims["xms_mirid"] as? String == identity.resourceId, "\(run)")
                #expect(claims["oid"] as? String == identity.objectId)
                #expect(claims["idtyp"] as? String == "app")
                #expect(claims["roles"] as? [String] == ["User.Read.All"])
            }
            #expect(report["same_token"] as? Bool == true, "\(run): the second token from the cache")
        }
    }

    @Test("user-assigned by client id on IMDS, App Service and Azure Arc (which echoes the identity)")
    func userAssigned() async throws {
        try await Self.withAzureHosts { emulator, ca, keys in
            for host in ["vm-1", "app-1", "arc-1"] {
                for sdk in ["msal", "azure-identity"] {
                    let report = try await Self.run(
                        sdk, host: host, emulator: emulator, ca: ca, keys: keys,
                        clientID: Directory.DemoIDs.userAssignedIdentity)
                    let claims = try #require(report["claims"] as? [String: Any])
                    #expect(claims["oid"] as? String == Directory.DemoIDs.userAssignedObjectID, "\(sdk) on \(host)")
                }
            }
        }
    }

    /// The emulator on HTTPS (Service Fabric pins its certificate) with the Arc hosts' keys in a temporary folder.
    static func withAzureHosts(_ body: @Sendable (RunningEmulator, String, URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mi-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = EmulatorConfiguration(port: 0, tlsDirectory: folder.appendingPathComponent("tls"))
        let keys = folder.appendingPathComponent("tokens")
        configuration.arcKeyFolder = keys
        try await IdentityEmulator.withRunning(configuration) { running in
            try await body(running, try #require(running.caCertificateFile).path, keys)
        }
    }

    static func run(
        _ sdk: String, host: String, emulator: RunningEmulator, ca: String, keys: URL, clientID: String? = nil
    ) async throws -> [String: Any] {
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": NSTemporaryDirectory(),
            "REQUESTS_CA_BUNDLE": ca, "NO_PROXY": "127.0.0.1,localhost", "ARC_KEY_FOLDER": keys.path,
        ].merging(try #require(emulator.managedIdentityEnvironment(host: host))) { $1 }
        let result = try await CLIProcess.run(
            try MSALPython.interpreter(), [script, sdk, graph] + (clientID.map { [$0] } ?? []), environment: environment
        )
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
            report["error"] == nil, result.status == 0
        else { throw CLITestFailure("\(sdk) on \(host) exited \(result.status):\n\(result.stdout)\n\(result.stderr)") }
        return report
    }
}
