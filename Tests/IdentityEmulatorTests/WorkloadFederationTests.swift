import Crypto
import Foundation
import IdentityEmulator
import Testing
import _CryptoExtras

@Suite("Workload identity federation: the built-in workload issuer and federated credentials")
struct WorkloadFederationTests {
    static let subject = Directory.DemoIDs.daemonWorkloadSubject

    @Test(
        "the workload issuer serves discovery, its own JWKS, and mints Kubernetes-style tokens on the emulator's clock")
    func issuer() async throws {
        try await TestEmulator.with { emulator in
            let issuer = emulator.running.issuerOrigin.absoluteString + "/_emulator/workload"
            let discovery = try await emulator.get("/_emulator/workload/.well-known/openid-configuration").json
            #expect(discovery["issuer"] as? String == issuer)
            #expect(discovery["jwks_uri"] as? String == issuer + "/keys")
            #expect(discovery["id_token_signing_alg_values_supported"] as? [String] == ["RS256"])
            #expect(discovery["response_types_supported"] as? [String] == ["id_token"])
            #expect(discovery["subject_types_supported"] as? [String] == ["public"])
            let keys = try await emulator.get("/_emulator/workload/keys").json
            let emulatorKeys = try await emulator.get("/\(emulator.ids.contosoTenant)/discovery/v2.0/keys").json

            try await emulator.setClockOffset(100)
            let minted = try await emulator.post("/_emulator/workload/token", json: #"{"subject":"\#(Self.subject)"}"#)
            #expect(minted.status == 200)
            let token = try #require(try minted.string("token"))
            let now = Int(TestEmulator.epoch.timeIntervalSince1970) + 100
            #expect(try minted.json["expiresOn"] as? Int == now + 3600)
            #expect(try JWTInspection.verifies(token, jwks: keys))
            #expect(try !JWTInspection.verifies(token, jwks: emulatorKeys))
            let header = try JWTInspection.header(token)
            #expect(header["alg"] as? String == "RS256")
            #expect(header["kid"] != nil)
            let claims = try JWTInspection.claims(token)
            #expect(claims["iss"] as? String == issuer)
            #expect(claims["sub"] as? String == Self.subject)
            #expect(claims["aud"] as? [String] == ["api://AzureADTokenExchange"])
            #expect(claims["iat"] as? Int == now)
            #expect(claims["nbf"] as? Int == now)
            #expect(claims["exp"] as? Int == now + 3600)
            #expect(claims["jti"] is String)

            let custom = try await emulator.post(
                "/_emulator/workload/token", json: #"{"subject":"s","audience":"api://other","lifetimeSeconds":60}"#)
            #expect(
                try JWTInspection.claims(try #require(try custom.string("token")))["aud"] as? [String] == [
                    "api://other"
                ])
            #expect(try await emulator.post("/_emulator/workload/token", json: #"{"audience":"x"}"#).status == 400)
            #expect(
                try await emulator.post("/_emulator/workload/token", json: #"{"subject":"s","lifetimeSeconds":0}"#)
                    .status
                    == 400)
        }
    }

    @Test("a workload token is exchanged for an app token with the daemon's roles (azpacr 2), again and again")
    func exchange() async throws {
        try await TestEmulator.with { emulator in
            let token = try await mint(emulator)
            for _ in 0..<2 {
                let result = try await emulator.clientCredentials(
                    assertion: token, scope: "api://\(emulator.ids.api1)/.default")
                #expect(result.status == 200, "\(result.body)")
                let claims = try JWTInspection.claims(try #require(try result.string("access_token")))
                #expect(claims["roles"] as? [String] == ["ToDoList.Read.All"])
                #expect(claims["azpacr"] as? String == "2")
                #expect(claims["azp"] as? String == emulator.ids.confidentialClient)
            }
        }
    }

    @Test("no federated credential for the subject (700213), the audience (700212) or the issuer (700211)")
    func mismatches() async throws {
        try await TestEmulator.with { emulator in
            let wrongSubject = try await mint(emulator, subject: "system:serviceaccount:demo:other")
            let subject = try await emulator.clientCredentials(assertion: wrongSubject)
            #expect(try subject.errorCode == 700213)
            #expect(subject.status == 401)
            #expect(subject.body.contains("presented assertion subject 'system:serviceaccount:demo:other'"))

            let wrongAudience = try await mint(emulator, audience: "api://SomethingElse")
            let audience = try await emulator.clientCredentials(assertion: wrongAudience)
            #expect(try audience.errorCode == 700212)
            #expect(audience.body.contains("presented assertion audience 'api://SomethingElse'"))

            // Matching is case-sensitive.
            let casing = try await mint(emulator, subject: Self.subject.uppercased())
            #expect(try await emulator.clientCredentials(assertion: casing).errorCode == 700213)

            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            var claims = TestAssertion.claims(client: "x", audience: "api://AzureADTokenExchange")
            claims["iss"] = "https://token.actions.githubusercontent.com"
            claims["sub"] = "repo:contoso/app:ref:refs/heads/main"
            let foreign = try TestAssertion.sign(header: ["alg": "RS256", "kid": "gh"], claims: claims, key: key)
            let issuer = try await emulator.clientCredentials(assertion: foreign)
            #expect(try issuer.errorCode == 700211)
            #expect(try issuer.string("error") == "invalid_client")
            #expect(issuer.body.contains("presented assertion issuer 'https://token.actions.githubusercontent.com'"))
        }
    }

    @Test("an expired workload token gets 700024; a tampered one 700027; a credential for an unreachable issuer 50166")
    func expiredTamperedUnreachable() async throws {
        var directory = Directory.demo
        let client = "8c3d4e5f-6a7b-4c8d-9e0f-a1b2c3d4e5f6"
        directory.applications.append(
            Application(
                clientId: client, displayName: "GitHub deployer", tenant: Directory.DemoIDs.contosoTenant,
                kind: .confidentialClient,
                federatedCredentials: [
                    FederatedCredential(
                        name: "github-main", issuer: "https://token.actions.githubusercontent.com",
                        subject: "repo:contoso/app:ref:refs/heads/main")
                ]))
        let configure: (inout EmulatorConfiguration) -> Void = { $0.directory = directory }
        try await TestEmulator.with(configure) { emulator in
            let shortLived = try await mint(emulator, lifetime: 60)
            let tampered = String(shortLived.dropLast(6)) + (shortLived.hasSuffix("AAAAAA") ? "BBBBBB" : "AAAAAA")
            let bad = try await emulator.clientCredentials(assertion: tampered)
            #expect(try bad.errorCode == 700027)

            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            var claims = TestAssertion.claims(client: "x", audience: "api://AzureADTokenExchange")
            claims["iss"] = "https://token.actions.githubusercontent.com"
            claims["sub"] = "repo:contoso/app:ref:refs/heads/main"
            let github = try TestAssertion.sign(header: ["alg": "RS256", "kid": "gh"], claims: claims, key: key)
            let unreachable = try await emulator.clientCredentials(client: client, assertion: github)
            #expect(try unreachable.errorCode == 50166)
            #expect(unreachable.status == 400)
            #expect(try unreachable.string("error") == "invalid_request")

            try await emulator.setClockOffset(120)
            let expired = try await emulator.clientCredentials(assertion: shortLived)
            #expect(try expired.errorCode == 700024)
            #expect(try expired.string("error") == "invalid_client")
        }
    }

    private func mint(
        _ emulator: TestEmulator, subject: String = WorkloadFederationTests.subject,
        audience: String = "api://AzureADTokenExchange", lifetime: Int = 3600
    ) async throws -> String {
        let result = try await emulator.post(
            "/_emulator/workload/token",
            json: #"{"subject":"\#(subject)","audience":"\#(audience)","lifetimeSeconds":\#(lifetime)}"#)
        return try #require(try result.string("token"))
    }
}
