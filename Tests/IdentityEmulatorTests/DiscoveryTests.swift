import Crypto
import Foundation
import IdentityEmulator
import Testing

@Suite("Discovery: OpenID configuration, keys, instance discovery")
struct DiscoveryTests {
    @Test(
        "tenant configuration matches Entra's recorded document, on the emulator's own origin",
        arguments: ["8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b", "contoso.onmicrosoft.com"])
    func tenantConfiguration(tenant: String) async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.get("/\(tenant)/v2.0/.well-known/openid-configuration")
            #expect(result.status == 200)
            #expect(result.header("Cache-Control") == "max-age=86400, private")
            try Golden.expectShape(result.body, matches: "openid-configuration")
            let json = try result.json
            let tid = Directory.DemoIDs.contosoTenant
            #expect(json["issuer"] as? String == "\(emulator.base)/\(tid)/v2.0")
            #expect(json["token_endpoint"] as? String == "\(emulator.base)/\(tid)/oauth2/v2.0/token")
            #expect(json["authorization_endpoint"] as? String == "\(emulator.base)/\(tid)/oauth2/v2.0/authorize")
            #expect(
                json["device_authorization_endpoint"] as? String == "\(emulator.base)/\(tid)/oauth2/v2.0/devicecode")
            #expect(json["jwks_uri"] as? String == "\(emulator.base)/\(tid)/discovery/v2.0/keys")
            #expect(json["end_session_endpoint"] as? String == "\(emulator.base)/\(tid)/oauth2/v2.0/logout")
        }
    }

    @Test(
        "common and organizations use the literal {tenantid} issuer; consumers the MSA tenant",
        arguments: [
            ("common", "{tenantid}"), ("organizations", "{tenantid}"),
            ("consumers", "9188040d-6c67-4c5b-b112-36a304b66dad"),
        ])
    func multiTenantConfiguration(alias: String, issuerTenant: String) async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.get("/\(alias)/v2.0/.well-known/openid-configuration")
            #expect(result.status == 200)
            try Golden.expectShape(result.body, matches: "openid-configuration", ignoring: ["tenant_region_scope"])
            let json = try result.json
            #expect(json["issuer"] as? String == "\(emulator.base)/\(issuerTenant)/v2.0")
            #expect(json["token_endpoint"] as? String == "\(emulator.base)/\(alias)/oauth2/v2.0/token")
            #expect(result.body.contains(#""tenant_region_scope":null"#))
        }
    }

    @Test("an unknown tenant gets 400 invalid_tenant AADSTS90002 in Entra's error shape")
    func unknownTenant() async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.get("/no-such-tenant.onmicrosoft.com/v2.0/.well-known/openid-configuration")
            #expect(result.status == 400)
            try Golden.expectShape(result.body, matches: "invalid-tenant")
            #expect(try result.string("error") == "invalid_tenant")
            let description = try #require(try result.string("error_description"))
            #expect(description.hasPrefix("AADSTS90002: Tenant 'no-such-tenant.onmicrosoft.com' not found."))
            #expect(description.contains("\r\nTrace ID: "))
            #expect(try result.json["error_codes"] as? [Int] == [90002])
            #expect(result.header("x-ms-request-id") == (try result.string("trace_id")))
        }
    }

    @Test("JWKS: one RSA-2048 RS256 key with kid == x5t == the certificate's SHA-1 thumbprint")
    func keys() async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.get("/common/discovery/v2.0/keys")
            #expect(result.status == 200)
            try Golden.expectShape(result.body, matches: "jwks")
            let key = try #require((try result.json["keys"] as? [any Sendable])?.first as? [String: any Sendable])
            #expect(key["kty"] as? String == "RSA")
            #expect(key["use"] as? String == "sig")
            #expect(key["kid"] as? String == key["x5t"] as? String)
            let modulus = try #require(JWTInspection.base64URLDecode(Substring(key["n"] as? String ?? "")))
            #expect(modulus.count == 256)
            let der = try #require(Data(base64Encoded: (key["x5c"] as? [String])?.first ?? ""))
            #expect(thumbprint(der) == key["x5t"] as? String)
            #expect(
                try await emulator.get("/\(Directory.DemoIDs.contosoTenant)/discovery/v2.0/keys").body == result.body)
            #expect(try await emulator.get("/nowhere/discovery/v2.0/keys").status == 400)
        }
    }

    @Test(
        "instance discovery echoes the tenant and lists aliases, for api-version 1.0 and 1.1",
        arguments: ["1.0", "1.1"])
    func instanceDiscovery(version: String) async throws {
        try await TestEmulator.with { emulator in
            let endpoint = "\(emulator.base)/contoso.onmicrosoft.com/oauth2/v2.0/authorize"
            let result = try await emulator.get(
                "/common/discovery/instance?"
                    + Form.encode([("api-version", version), ("authorization_endpoint", endpoint)]))
            #expect(result.status == 200)
            try Golden.expectShape(result.body, matches: "instance-discovery")
            #expect(
                try result.string("tenant_discovery_endpoint")
                    == "\(emulator.base)/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration")
            #expect(try result.string("api-version") == version)
            let metadata = try #require(
                (try result.json["metadata"] as? [any Sendable])?.first as? [String: any Sendable])
            #expect((metadata["aliases"] as? [String])?.contains("127.0.0.1:\(emulator.running.port)") == true)
            #expect((metadata["aliases"] as? [String])?.contains("localhost:\(emulator.running.port)") == true)
        }
    }

    @Test("instance discovery refuses unknown hosts with invalid_instance AADSTS50049")
    func unknownInstance() async throws {
        try await TestEmulator.with { emulator in
            let query = Form.encode([
                ("api-version", "1.1"),
                ("authorization_endpoint", "https://login.evil.example/common/oauth2/v2.0/authorize"),
            ])
            let result = try await emulator.get("/common/discovery/instance?" + query)
            #expect(result.status == 400)
            try Golden.expectShape(result.body, matches: "invalid-instance")
            #expect(try result.string("error") == "invalid_instance")
        }
    }
}

private func thumbprint(_ der: Data) -> String {
    Data(Insecure.SHA1.hash(data: der)).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
            of: "=", with: "")
}
