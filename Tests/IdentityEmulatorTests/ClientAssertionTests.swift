import Crypto
import Foundation
import IdentityEmulator
import Testing
import _CryptoExtras

@Suite("Client authentication: secrets and certificate assertions")
struct ClientAssertionTests {
    @Test(
        "a secret still authenticates the daemon: appidacr 1 on Graph, azpacr 1 on API 1; discovery lists private_key_jwt"
    )
    func secret() async throws {
        try await TestEmulator.with { emulator in
            let graph = try await emulator.daemonToken(scope: "https://graph.microsoft.com/.default")
            #expect(graph.status == 200)
            let graphClaims = try JWTInspection.claims(try #require(try graph.string("access_token")))
            #expect(graphClaims["appidacr"] as? String == "1")
            let api = try await emulator.daemonToken(scope: "api://\(emulator.ids.api1)/.default")
            let apiClaims = try JWTInspection.claims(try #require(try api.string("access_token")))
            #expect(apiClaims["azpacr"] as? String == "1")
            let discovery = try await emulator.get(
                "/\(emulator.ids.contosoTenant)/v2.0/.well-known/openid-configuration")
            #expect(
                try discovery.json["token_endpoint_auth_methods_supported"] as? [String] == [
                    "client_secret_post", "private_key_jwt", "client_secret_basic",
                ])
        }
    }

    @Test(
        "the demo certificate authenticates with x5t#S256 in base64url, padded base64url or base64, PS256 or RS256",
        arguments: ["PS256", "RS256"], TestAssertion.Encoding.allCases)
    func certificateSHA256(alg: String, encoding: TestAssertion.Encoding) async throws {
        try await TestEmulator.with { emulator in
            let assertion = try TestAssertion.sign(
                header: [
                    "alg": alg, "typ": "JWT", "x5t#S256": TestAssertion.encode(TestAssertion.demoSHA256, encoding),
                ],
                claims: TestAssertion.claims(
                    client: emulator.ids.confidentialClient,
                    audience: emulator.tokenEndpoint(emulator.ids.contosoTenant)),
                key: TestAssertion.demoKey)
            let result = try await emulator.clientCredentials(assertion: assertion)
            #expect(result.status == 200, "\(result.body)")
            let claims = try JWTInspection.claims(try #require(try result.string("access_token")))
            #expect(claims["appidacr"] as? String == "2")
            #expect(claims["roles"] as? [String] == ["User.Read.All"])
        }
    }

    @Test("x5t (SHA-1) with RS256, as for ADFS; x5c as an array or a string is ignored; lenient NumericDates")
    func certificateSHA1AndLeniency() async throws {
        try await TestEmulator.with { emulator in
            let audience = emulator.tokenEndpoint("contoso.onmicrosoft.com")
            let now = Int(TestEmulator.epoch.timeIntervalSince1970)
            let variants: [([String: Any], [String: Any])] = [
                (["x5t": TestAssertion.encode(TestAssertion.demoSHA1, .base64URLPadded)], [:]),
                (["x5t": TestAssertion.encode(TestAssertion.demoSHA1, .base64), "x5c": ["MIIB", "MIIC"]], [:]),
                // MSAL Python: no nbf, fractional exp and iat.
                (
                    ["x5t": TestAssertion.encode(TestAssertion.demoSHA1), "x5c": "MIIB"],
                    ["nbf": NSNull(), "exp": Double(now) + 600.25, "iat": Double(now) + 0.5]
                ),
                // MSAL.NET: nbf and exp as strings.
                (["x5t": TestAssertion.encode(TestAssertion.demoSHA1)], ["nbf": "\(now)", "exp": "\(now + 600)"]),
            ]
            for (extraHeader, extraClaims) in variants {
                var header: [String: Any] = ["alg": "RS256", "typ": "JWT"]
                header.merge(extraHeader) { $1 }
                var claims = TestAssertion.claims(client: emulator.ids.confidentialClient, audience: audience)
                for (name, value) in extraClaims {
                    claims[name] = value is NSNull ? nil : value
                }
                let assertion = try TestAssertion.sign(header: header, claims: claims, key: TestAssertion.demoKey)
                let result = try await emulator.clientCredentials(
                    tenant: "contoso.onmicrosoft.com", assertion: assertion)
                #expect(result.status == 200, "\(extraHeader) \(extraClaims): \(result.body)")
            }
        }
    }

    @Test("a bare public key is selected by kid; the aud may name the tenant by domain or a loopback alias")
    func publicKeyByKid() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let client = "6a1f2e3d-4c5b-4a69-8e7f-0a1b2c3d4e5f"
        var directory = Directory.demo
        directory.applications.append(
            Application(
                clientId: client, displayName: "Key daemon", tenant: Directory.DemoIDs.contosoTenant,
                kind: .confidentialClient,
                keyCredentials: [KeyCredential(publicKey: key.publicKey.pemRepresentation, keyId: "key-1")],
                grantedAppRoles: ["api://\(Directory.DemoIDs.api1)/ToDoList.Read.All"]))
        let configure: (inout EmulatorConfiguration) -> Void = { $0.directory = directory }
        try await TestEmulator.with(configure) { emulator in
            let port = emulator.running.port
            for audience in [
                emulator.tokenEndpoint(emulator.ids.contosoTenant),
                "http://localhost:\(port)/contoso.onmicrosoft.com/oauth2/v2.0/token",
            ] {
                let assertion = try TestAssertion.sign(
                    header: ["alg": "PS256", "kid": "key-1"],
                    claims: TestAssertion.claims(client: client, audience: audience), key: key)
                let result = try await emulator.clientCredentials(
                    client: client, assertion: assertion, scope: "api://\(emulator.ids.api1)/.default")
                #expect(result.status == 200, "\(audience): \(result.body)")
                let claims = try JWTInspection.claims(try #require(try result.string("access_token")))
                #expect(claims["azpacr"] as? String == "2")
                #expect(claims["roles"] as? [String] == ["ToDoList.Read.All"])
            }
        }
    }

    @Test("each assertion error has Entra's code, error, status and text", arguments: AssertionErrorCase.all)
    func assertionErrors(_ c: AssertionErrorCase) async throws {
        try await TestEmulator.with { emulator in
            let audience = emulator.tokenEndpoint(emulator.ids.contosoTenant)
            let result = try await emulator.clientCredentials(
                assertion: try c.assertion(audience), assertionType: c.assertionType)
            #expect(try result.errorCode == c.code, "\(result.body)")
            #expect(try result.string("error") == c.error)
            #expect(result.status == (c.error == "invalid_client" ? 401 : 400))
            try Golden.expectShape(result.body, matches: "token-error-revoked", ignoring: ["suberror"])
            let description = try #require(try result.string("error_description"))
            #expect(description.hasPrefix("AADSTS\(c.code): \(c.text)"), "\(description)")
        }
    }

    @Test("an app without federated credentials refuses an assertion issued for another client (700021)")
    func issuerIsAnotherClient() async throws {
        let client = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d"
        var directory = Directory.demo
        directory.applications.append(
            Application(
                clientId: client, displayName: "Certificate-only daemon", tenant: Directory.DemoIDs.contosoTenant,
                kind: .confidentialClient,
                keyCredentials: [KeyCredential(certificate: Directory.DemoIDs.daemonCertificatePEM)]))
        let configure: (inout EmulatorConfiguration) -> Void = { $0.directory = directory }
        try await TestEmulator.with(configure) { emulator in
            // Signed with the (shared) registered certificate, but iss = sub = the demo daemon.
            let assertion = try TestAssertion.demo(audience: emulator.tokenEndpoint(emulator.ids.contosoTenant))
            let result = try await emulator.clientCredentials(client: client, assertion: assertion)
            #expect(result.status == 401)
            #expect(try result.errorCode == 700021)
            #expect(
                try result.string("error_description")?.hasPrefix(
                    "AADSTS700021: Client assertion application identifier doesn't match 'client_id' parameter.")
                    == true)
            let own = try TestAssertion.sign(
                header: ["alg": "PS256", "x5t#S256": TestAssertion.encode(TestAssertion.demoSHA256)],
                claims: TestAssertion.claims(
                    client: client, audience: emulator.tokenEndpoint(emulator.ids.contosoTenant)),
                key: TestAssertion.demoKey)
            #expect(try await emulator.clientCredentials(client: client, assertion: own).status == 200)
        }
    }

    @Test("the same assertion may be presented again; a different assertion reusing its jti is refused")
    func replay() async throws {
        try await TestEmulator.with { emulator in
            let audience = emulator.tokenEndpoint(emulator.ids.contosoTenant)
            let assertion = try TestAssertion.demo(audience: audience, claims: ["jti": "jti-1"])
            #expect(try await emulator.clientCredentials(assertion: assertion).status == 200)
            #expect(try await emulator.clientCredentials(assertion: assertion).status == 200)
            let other = try TestAssertion.demo(audience: audience, claims: ["jti": "jti-1", "iat": 1])
            let refused = try await emulator.clientCredentials(assertion: other)
            #expect(refused.status == 401)
            #expect(try refused.string("error") == "invalid_client")
            #expect(try refused.errorCode == 50013)
            #expect(refused.body.contains("the 'jti' claim was already used by another assertion"))

            // Once the first assertion expired, its jti is forgotten.
            try await emulator.setClockOffset(601)
            let later = try TestAssertion.sign(
                header: ["alg": "PS256", "x5t#S256": TestAssertion.encode(TestAssertion.demoSHA256)],
                claims: TestAssertion.claims(
                    client: emulator.ids.confidentialClient, audience: audience,
                    now: Int(TestEmulator.epoch.timeIntervalSince1970) + 601, jti: "jti-1"),
                key: TestAssertion.demoKey)
            #expect(try await emulator.clientCredentials(assertion: later).status == 200)
        }
    }

    @Test(
        "credentials and client kinds: public clients must send none, confidential ones one, APIs without one are not clients"
    )
    func clientKinds() async throws {
        try await TestEmulator.with { emulator in
            let audience = emulator.tokenEndpoint(emulator.ids.contosoTenant)
            let assertion = try TestAssertion.demo(audience: audience)
            let publicClient = try await emulator.clientCredentials(
                client: emulator.ids.publicClient, assertion: assertion)
            #expect(try publicClient.errorCode == 700025)
            let none = try await emulator.token(
                emulator.ids.contosoTenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.confidentialClient),
                    ("scope", "https://graph.microsoft.com/.default"),
                ])
            #expect(none.status == 401)
            #expect(try none.errorCode == 7_000_218)
            let noType = try await emulator.token(
                emulator.ids.contosoTenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.confidentialClient),
                    ("scope", "https://graph.microsoft.com/.default"), ("client_assertion", assertion),
                ])
            #expect(try noType.errorCode == 900_144)
            #expect(noType.body.contains("'client_assertion_type'"))
            let graphAsClient = try await emulator.token(
                emulator.ids.contosoTenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.graph),
                    ("client_secret", "x"), ("scope", "https://graph.microsoft.com/.default"),
                ])
            #expect(try graphAsClient.errorCode == 700016)
            let api1Secret = try await emulator.token(
                emulator.ids.externalTenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.api1),
                    ("client_secret", Directory.DemoIDs.api1Secret), ("scope", "https://graph.microsoft.com/.default"),
                ])
            #expect(api1Secret.status == 200)
        }
    }
}

/// One refused client assertion and the answer it must get.
struct AssertionErrorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let code: Int
    let error: String
    /// The start of the description after `AADSTSnnnn: `.
    let text: String
    var assertionType = TestAssertion.jwtBearer
    /// Makes the assertion for the tenant's token endpoint (`aud`).
    let assertion: @Sendable (String) throws -> String

    var testDescription: String { "AADSTS\(code) \(name)" }

    static let client = Directory.DemoIDs.confidentialClient
    static let now = Int(TestEmulator.epoch.timeIntervalSince1970)
    static let sha256 = TestAssertion.encode(TestAssertion.demoSHA256)

    static func demo(header: [String: Any] = [:], claims change: (inout [String: Any]) -> Void, audience: String) throws
        -> String
    {
        var fullHeader: [String: Any] = ["alg": "PS256", "typ": "JWT", "x5t#S256": sha256]
        for (name, value) in header { fullHeader[name] = value is NSNull ? nil : value }
        var claims = TestAssertion.claims(client: client, audience: audience)
        change(&claims)
        return try TestAssertion.sign(header: fullHeader, claims: claims, key: TestAssertion.demoKey)
    }

    static let all: [AssertionErrorCase] = [
        AssertionErrorCase(
            name: "wrong client_assertion_type", code: 90011, error: "invalid_request",
            text: "Unexpected client assertion type.",
            assertionType: "urn:ietf:params:oauth:client-assertion-type:saml2-bearer",
            assertion: { try demo(claims: { _ in }, audience: $0) }),
        AssertionErrorCase(
            name: "not three segments", code: 50027, error: "invalid_request",
            text: "JWT token is invalid or malformed.",
            assertion: { _ in "eyJhbGciOiJQUzI1NiJ9.e30" }),
        AssertionErrorCase(
            name: "HS256", code: 5_002_738, error: "invalid_client",
            text: "Invalid JWT token. 'HS256' is not a supported signature algorithm.",
            assertion: { try demo(header: ["alg": "HS256"], claims: { _ in }, audience: $0) }),
        AssertionErrorCase(
            name: "no key selector", code: 5_002_723, error: "invalid_client",
            text:
                "Invalid JWT token. No certificate SHA-1 thumbprint, certificate SHA-256 thumbprint, nor keyId specified in token header.",
            assertion: { audience in
                try TestAssertion.sign(
                    header: ["alg": "PS256"], claims: TestAssertion.claims(client: client, audience: audience),
                    key: TestAssertion.demoKey)
            }),
        AssertionErrorCase(
            name: "key not registered", code: 700027, error: "invalid_client",
            text:
                "Client assertion contains an invalid signature. [Reason - The key was not found., Thumbprint of key used by client: '0102030405060708090A0B0C0D0E0F1011121314'",
            assertion: {
                try demo(
                    header: ["x5t#S256": NSNull(), "x5t": TestAssertion.encode(Data(1...20))], claims: { _ in },
                    audience: $0)
            }),
        AssertionErrorCase(
            name: "no iss", code: 90014, error: "invalid_request",
            text: "The required field 'iss' is missing from the credential.",
            assertion: { try demo(claims: { $0["iss"] = nil }, audience: $0) }),
        AssertionErrorCase(
            name: "sub differs from iss", code: 50048, error: "invalid_client",
            text: "Subject mismatches Issuer claim in the client assertion.",
            assertion: { try demo(claims: { $0["sub"] = "someone-else" }, audience: $0) }),
        AssertionErrorCase(
            name: "no aud", code: 90014, error: "invalid_request",
            text: "The required field 'aud' is missing from the credential.",
            assertion: { try demo(claims: { $0["aud"] = nil }, audience: $0) }),
        AssertionErrorCase(
            name: "aud of another tenant", code: 700023, error: "invalid_client",
            text: "Client assertion audience claim does not match Realm issuer.",
            assertion: { audience in
                try demo(
                    claims: {
                        $0["aud"] = audience.replacingOccurrences(
                            of: Directory.DemoIDs.contosoTenant, with: "fabrikam.onmicrosoft.com")
                    },
                    audience: audience)
            }),
        AssertionErrorCase(
            name: "aud of another host", code: 700023, error: "invalid_client",
            text: "Client assertion audience claim does not match Realm issuer.",
            assertion: { audience in
                try demo(
                    claims: {
                        $0["aud"] =
                            "https://login.microsoftonline.com/\(Directory.DemoIDs.contosoTenant)/oauth2/v2.0/token"
                    }, audience: audience)
            }),
        AssertionErrorCase(
            name: "signed by another key", code: 700027, error: "invalid_client",
            text:
                "Client assertion contains an invalid signature. [Reason - The provided signature value did not match the expected signature value.",
            assertion: { audience in
                try TestAssertion.sign(
                    header: ["alg": "PS256", "x5t#S256": sha256],
                    claims: TestAssertion.claims(client: client, audience: audience),
                    key: try _RSA.Signing.PrivateKey(keySize: .bits2048))
            }),
        AssertionErrorCase(
            name: "expired", code: 700024, error: "invalid_client",
            text:
                "Client assertion is not within its valid time range. Current time: 2026-11-18T11:06:40.0000000Z, assertion valid from 2026-11-18T10:06:40.0000000Z, expiry time of assertion 2026-11-18T10:16:40.0000000Z.",
            assertion: {
                try demo(
                    claims: {
                        $0["nbf"] = now - 3600
                        $0["exp"] = now - 3000
                    }, audience: $0)
            }),
        AssertionErrorCase(
            name: "no exp (1970)", code: 700024, error: "invalid_client",
            text:
                "Client assertion is not within its valid time range. Current time: 2026-11-18T11:06:40.0000000Z, assertion valid from 2026-11-18T11:06:40.0000000Z, expiry time of assertion 1970-01-01T00:00:00.0000000Z.",
            assertion: { try demo(claims: { $0["exp"] = nil }, audience: $0) }),
        AssertionErrorCase(
            name: "nbf beyond the clock skew", code: 700024, error: "invalid_client",
            text: "Client assertion is not within its valid time range.",
            assertion: {
                try demo(
                    claims: {
                        $0["nbf"] = now + 600
                        $0["exp"] = now + 1200
                    }, audience: $0)
            }),
    ]
}
