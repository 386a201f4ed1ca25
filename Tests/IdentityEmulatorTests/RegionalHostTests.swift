import Foundation
import IdentityEmulator
import Testing

/// The emulator answering as Entra's regional token service (`{region}.{its host}`) and IMDS's compute metadata, the
/// two things MSALs' regional endpoints need.
@Suite("Regional hosts and IMDS compute metadata")
struct RegionalHostTests {
    @Test(
        "a region's name under localhost is served, tokens keep the global issuer, and the request log names the host")
    func regionalHostServed() async throws {
        try await TestEmulator.with { emulator in
            let regional = "westus2.localhost:\(emulator.running.port)"
            let tenant = Directory.DemoIDs.contosoTenant
            let discovery = try await emulator.get(
                "/\(tenant)/v2.0/.well-known/openid-configuration", headers: [("Host", regional)])
            #expect(discovery.status == 200)
            #expect(try discovery.string("token_endpoint") == "http://\(regional)/\(tenant)/oauth2/v2.0/token")
            #expect(try discovery.string("issuer") == "\(emulator.base)/\(tenant)/v2.0")

            let token = try await emulator.token(
                tenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", Directory.DemoIDs.confidentialClient),
                    ("client_secret", Directory.DemoIDs.confidentialSecret),
                    ("scope", "api://\(Directory.DemoIDs.api1)/.default"),
                ], headers: [("Host", regional)])
            #expect(token.status == 200)
            let iss = try JWTInspection.claims(try #require(try token.string("access_token")))["iss"] as? String
            #expect(iss == "\(emulator.base)/\(tenant)/v2.0")

            let log = try await emulator.get("/_emulator/requests")
            #expect(log.body.contains(#""host":"\#(regional)""#))
        }
    }

    @Test(
        "a region's label on an IP address, a label that is not a region's, or another host is refused with 421",
        arguments: ["westus2.127.0.0.1:{port}", "west_us.localhost:{port}", "westus2.evil.example:{port}"])
    func notRegionalRefused(_ host: String) async throws {
        try await TestEmulator.with { emulator in
            let named = host.replacingOccurrences(of: "{port}", with: "\(emulator.running.port)")
            let answer = try await emulator.get(
                "/organizations/v2.0/.well-known/openid-configuration", headers: [("Host", named)])
            #expect(answer.status == 421, "Host \(named)")
        }
    }

    @Test(
        "IMDS answers a virtual machine's location as text and in its compute metadata, as MSAL.NET and MSAL Python ask"
    )
    func computeLocation() async throws {
        try await TestEmulator.with { emulator in
            let metadata = [("Metadata", "true")]
            let leaf = try await emulator.get(
                "/hosts/vm-1/metadata/instance/compute/location?format=text&api-version=2021-01-01", headers: metadata)
            #expect(leaf.status == 200)
            #expect(leaf.body == AzureHost.defaultLocation)
            #expect(leaf.header("Content-Type")?.hasPrefix("text/plain") == true)
            let root = try await emulator.get(
                "/metadata/instance/compute/location?format=text&api-version=2020-06-01", headers: metadata)
            #expect(root.body == AzureHost.defaultLocation)
            let compute = try await emulator.get(
                "/hosts/vm-1/metadata/instance/compute?api-version=2021-02-01", headers: metadata)
            #expect(try compute.string("location") == AzureHost.defaultLocation)
        }
    }

    @Test("IMDS refuses what Azure's refuses: no Metadata header, an unknown api-version (naming the newest), no VM")
    func computeLocationRefusals() async throws {
        try await TestEmulator.with { emulator in
            let path = "/hosts/vm-1/metadata/instance/compute/location?format=text"
            let noHeader = try await emulator.get(path + "&api-version=2021-01-01")
            #expect(noHeader.status == 400)
            #expect(try noHeader.string("error")?.contains("metadata header") == true)
            let badVersion = try await emulator.get(path + "&api-version=1999-01-01", headers: [("Metadata", "true")])
            #expect(badVersion.status == 400)
            #expect((try badVersion.json["newest-versions"] as? [String])?.first == "2023-07-01")
            let notVM = try await emulator.get(
                "/hosts/app-1/metadata/instance/compute/location?format=text&api-version=2021-01-01",
                headers: [("Metadata", "true")])
            #expect(notVM.status == 404)
        }
    }
}
