import Foundation
import IdentityEmulator
import Testing

@Suite("B2C tenant: user flows' discovery, keys and endpoints as b2clogin.com serves them")
struct B2CUserFlowTests {
    static let tenant = "fabrikamb2c.onmicrosoft.com"

    @Test("discovery per policy, in both path forms: endpoints under the policy in lower case, the tenant id issuer")
    func discovery() async throws {
        try await TestEmulator.with { e in
            for prefix in ["", "/tfp"] {
                let result = try await e.get(
                    "\(prefix)/\(Self.tenant)/B2C_1_SignUpSignIn/v2.0/.well-known/openid-configuration")
                #expect(result.status == 200)
                let base = "\(e.base)\(prefix)/\(Self.tenant)/b2c_1_signupsignin"
                #expect(try result.string("issuer") == "\(e.base)/\(e.ids.b2cTenant)/v2.0/")
                #expect(try result.string("authorization_endpoint") == "\(base)/oauth2/v2.0/authorize")
                #expect(try result.string("token_endpoint") == "\(base)/oauth2/v2.0/token")
                #expect(try result.string("end_session_endpoint") == "\(base)/oauth2/v2.0/logout")
                #expect(try result.string("jwks_uri") == "\(base)/discovery/v2.0/keys")
                let document = try result.json
                #expect((document["claims_supported"] as? [String])?.contains("tfp") == true)
                #expect(document["device_authorization_endpoint"] == nil)
                let keys = try await e.get("\(prefix)/\(Self.tenant)/b2c_1_signupsignin/discovery/v2.0/keys")
                #expect((try keys.json["keys"] as? [Any])?.count == 1)
            }
        }
    }

    @Test("an unknown policy, and a policy path on a tenant that is not a B2C one, are 404")
    func unknownPolicies() async throws {
        try await TestEmulator.with { e in
            let unknown = try await e.get("/\(Self.tenant)/B2C_1_nosuchflow/v2.0/.well-known/openid-configuration")
            #expect(unknown.status == 404)
            #expect(try unknown.string("error_description")?.contains("B2C_1_nosuchflow") == true)
            let workforce = try await e.get(
                "/contoso.onmicrosoft.com/B2C_1_signupsignin/v2.0/.well-known/openid-configuration")
            #expect(workforce.status == 404)
            let authorize = try await e.get(
                "/\(Self.tenant)/B2C_1_nosuchflow/oauth2/v2.0/authorize?client_id=\(e.ids.b2cPublicClient)")
            #expect(authorize.status == 404)
        }
    }

    @Test("a user flow's token endpoint redeems codes and refresh tokens only")
    func grants() async throws {
        try await TestEmulator.with { e in
            let result = try await e.post(
                "/\(Self.tenant)/B2C_1_signupsignin/oauth2/v2.0/token",
                form: [
                    ("grant_type", "password"), ("client_id", e.ids.b2cPublicClient),
                    ("username", Directory.DemoIDs.b2cUser), ("password", Directory.DemoIDs.b2cUserPassword),
                    ("scope", "openid"),
                ])
            #expect(result.status == 400)
            #expect(try result.string("error") == "unsupported_grant_type")
        }
    }

    @Test("the sign-up or sign-in page offers \"Forgot your password?\", which ends the request with AADB2C90118")
    func forgotPassword() async throws {
        try await TestEmulator.with { e in
            let authorize =
                "/\(Self.tenant)/B2C_1_signupsignin/oauth2/v2.0/authorize?client_id=\(e.ids.b2cPublicClient)"
                + "&redirect_uri=http://localhost:5000&response_type=code&scope=openid&state=s1"
            let page = try await e.get(authorize)
            #expect(page.status == 200)
            #expect(page.body.contains("id=\"forgotpassword\""))
            let flow = try #require(
                page.body.range(of: #"name="flow" value="([^"]*)""#, options: .regularExpression).map {
                    String(page.body[$0]).split(separator: "\"")[3]
                })
            let buid = try #require(page.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
            let answer = try await e.post(
                "/\(Self.tenant)/login", form: [("flow", String(flow)), ("action", "forgotpassword")],
                headers: [("Cookie", buid)])
            #expect(answer.status == 302)
            let location = try #require(answer.header("Location").flatMap(URLComponents.init(string:)))
            let query = Dictionary(uniqueKeysWithValues: (location.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["error"] == "access_denied")
            #expect(
                query["error_description"]?.hasPrefix("AADB2C90118: The user has forgotten their password.") == true)
            #expect(query["state"] == "s1")
            let workforce = try await e.get(
                "/organizations/oauth2/v2.0/authorize?client_id=\(e.ids.publicClient)"
                    + "&redirect_uri=http://localhost:5000&response_type=code&scope=openid")
            #expect(!workforce.body.contains("forgotpassword"))
        }
    }
}
