import Foundation
import IdentityEmulator
import Testing

@Suite("An External ID tenant's custom URL domain")
struct CustomURLDomainEmulatorTests {
    @Test("discovery through the domain names endpoints on it and the tenant's issuer; an undeclared name gets 421")
    func discoveryThroughCustomURLDomain() async throws {
        try await TestEmulator.with { emulator in
            let tenant = Directory.DemoIDs.externalTenant
            let domain = "\(Directory.DemoIDs.externalCustomURLDomain):\(emulator.running.port)"
            let path = "/\(tenant)/v2.0/.well-known/openid-configuration"
            let document = try await emulator.get(path, headers: [("Host", domain)])
            #expect(document.status == 200)
            let json = try document.json
            #expect(json["token_endpoint"] as? String == "http://\(domain)/\(tenant)/oauth2/v2.0/token")
            #expect(json["authorization_endpoint"] as? String == "http://\(domain)/\(tenant)/oauth2/v2.0/authorize")
            #expect(json["issuer"] as? String == "\(emulator.base)/\(tenant)/v2.0")

            let other = try await emulator.get(
                path, headers: [("Host", "login.fabrikam.localhost:\(emulator.running.port)")])
            #expect(other.status == 421)
        }
    }

    @Test("a directory file declares a tenant's custom URL domains")
    func decoded() throws {
        let json = #"""
            {"id":"c1a2b3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d","domain":"contosocustomers.onmicrosoft.com",
             "displayName":"Contoso Customers","kind":"external","customURLDomains":["login.contoso.com"]}
            """#
        let tenant = try JSONDecoder().decode(Tenant.self, from: Data(json.utf8))
        #expect(tenant.customURLDomains == ["login.contoso.com"])
        let without = try JSONDecoder().decode(
            Tenant.self,
            from: Data(json.replacingOccurrences(of: #","customURLDomains":["login.contoso.com"]"#, with: "").utf8))
        #expect(without.customURLDomains.isEmpty)
    }
}
