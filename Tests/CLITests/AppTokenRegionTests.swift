import AsyncHTTPClient
import Foundation
import IdentityEmulator
import NIOCore
import Testing

@Suite("msal app token --region")
struct AppTokenRegionTests {
    static let ids = Directory.DemoIDs.self

    @Test(
        "--region westus2 asks the emulator as westus2.localhost; --region auto takes REGION_NAME; a second run is cached"
    )
    func regionalToken() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let environment = [
                "MSAL_AUTHORITY": "http://localhost:\(emulator.port)/organizations",
                "DAEMON_SECRET": Self.ids.confidentialSecret,
            ]
            let common = [
                "app", "token", "--client-id", Self.ids.confidentialClient, "--tenant", Self.ids.contosoTenant,
                "--client-secret-env", "DAEMON_SECRET", "--json",
            ]
            let named = try await sandbox.msal(
                common + ["--scopes", "https://graph.microsoft.com/.default", "--region", "westus2"], environment)
            #expect(named.status == 0, "\(named.stderr)")
            let again = try await sandbox.msal(
                common + ["--scopes", "https://graph.microsoft.com/.default", "--region", "westus2"], environment)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
            #expect(json["source"] as? String == "cache")
            let detected = try await sandbox.msal(
                common + ["--scopes", "api://\(Self.ids.api1)/.default", "--region", "auto"],
                environment.merging(["REGION_NAME": "centralus"]) { $1 })
            #expect(detected.status == 0, "\(detected.stderr)")
            #expect(
                try await Self.tokenHosts(emulator) == [
                    "westus2.localhost:\(emulator.port)", "centralus.localhost:\(emulator.port)",
                ])

            let withManagedIdentity = try await sandbox.msal(
                ["app", "token", "--managed-identity", "--resource", "https://graph.microsoft.com", "--region", "auto"])
            #expect(withManagedIdentity.status == 2)
        }
    }

    /// The `Host` each token request named, oldest first.
    private static func tokenHosts(_ emulator: RunningEmulator) async throws -> [String] {
        var request = HTTPClientRequest(url: "\(emulator.baseURL)/_emulator/requests?path=/oauth2/v2.0/token")
        request.method = .GET
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let data = Data(try await response.body.collect(upTo: 1 << 22).readableBytesView)
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((json?["requests"] as? [[String: Any]]) ?? []).compactMap { $0["host"] as? String }
    }
}
