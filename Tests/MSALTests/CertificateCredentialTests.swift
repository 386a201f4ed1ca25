import Crypto
import Foundation
import IdentityEmulator
import Locking
import Logging
import MSAL
import Testing
import _CryptoExtras

@Suite("Certificate and federated credentials")
struct CertificateCredentialTests {
    static let ids = Directory.DemoIDs.self

    static func demoCertificate(_ algorithm: ClientCertificate.SigningAlgorithm = .ps256) throws -> ClientCertificate {
        try ClientCertificate(
            privateKeyPEM: ids.daemonPrivateKeyPEM, certificatePEM: ids.daemonCertificatePEM, algorithm: algorithm)
    }

    /// The JSON of a JWT's header and claims.
    static func parts(_ jwt: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let segments = jwt.split(separator: ".").map(String.init)
        func json(_ segment: String) throws -> [String: Any] {
            var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            let data = try #require(Data(base64Encoded: base64))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        #expect(segments.count == 3)
        return (try json(segments[0]), try json(segments[1]))
    }

    @Test("PEM parsing: thumbprints, a key without its certificate, a small key and garbage are refused clearly")
    func parsing() throws {
        let certificate = try Self.demoCertificate()
        let body = Self.ids.daemonCertificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: body))
        let sha256 = Data(SHA256.hash(data: der)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(certificate.sha256Thumbprint == sha256)
        #expect(certificate.sha1Thumbprint.count == 40)
        #expect(!"\(certificate)".contains("PRIVATE"))
        #expect(!"\(ClientCredential.certificate(certificate))".contains("MII"))

        let stranger = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let mismatch = #expect(throws: MSALError.self) {
            try ClientCertificate(
                privateKeyPEM: stranger.pemRepresentation, certificatePEM: Self.ids.daemonCertificatePEM)
        }
        #expect(mismatch?.message.contains("belongs to its private key") == true)
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        let weak = #expect(throws: MSALError.self) {
            try ClientCertificate(privateKeyPEM: small.pemRepresentation, certificatePEM: Self.ids.daemonCertificatePEM)
        }
        #expect(weak?.message.contains("2048") == true)
        #expect(!(weak?.message.contains("MII") ?? true))
        #expect(throws: MSALError.self) {
            try ClientCertificate(privateKeyPEM: Self.ids.daemonPrivateKeyPEM, certificatePEM: "not a certificate")
        }
        let combined = FileManager.default.temporaryDirectory.appendingPathComponent("msal-cert-\(UUID()).pem")
        defer { try? FileManager.default.removeItem(at: combined) }
        try Data((Self.ids.daemonPrivateKeyPEM + "\n" + Self.ids.daemonCertificatePEM).utf8).write(to: combined)
        #expect(try ClientCertificate(pemFile: combined).sha256Thumbprint == sha256)
    }

    @Test(
        "a certificate assertion (PS256 and RS256, x5t#S256, aud = token endpoint, 10 minutes) gets app tokens, reused until near expiry",
        arguments: [ClientCertificate.SigningAlgorithm.ps256, .rs256])
    func certificateAssertion(_ algorithm: ClientCertificate.SigningAlgorithm) async throws {
        try await Harness.with { h in
            let transport = try IdentityPlatformClientTests.RecordingTransport()
            let certificate = try Self.demoCertificate(algorithm)
            let app = try h.confidentialApp(credential: .certificate(certificate), transport: transport)
            let first = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.api1Default))
            #expect(first.roles == ["ToDoList.Read.All"])
            _ = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            let forms = transport.tokenForms.map { FormFields($0) }
            #expect(forms.count == 2)
            #expect(forms[0]["client_secret"] == nil)
            #expect(forms[0]["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
            let assertion = try #require(forms[0]["client_assertion"])
            #expect(forms[1]["client_assertion"] == assertion, "the signed assertion is reused")
            let (header, claims) = try Self.parts(assertion)
            #expect(header["alg"] as? String == algorithm.rawValue)
            #expect(header["x5t#S256"] as? String == certificate.sha256Thumbprint)
            #expect(header["x5c"] == nil)
            let tokenEndpoint = try #require(transport.requests.last { $0.url?.path.hasSuffix("/token") == true }?.url)
            #expect(claims["aud"] as? String == tokenEndpoint.absoluteString)
            #expect(claims["iss"] as? String == h.ids.confidentialClient)
            #expect(claims["sub"] as? String == h.ids.confidentialClient)
            #expect((claims["exp"] as? Int ?? 0) - (claims["nbf"] as? Int ?? 0) == 600)
            #expect((claims["jti"] as? String)?.count == 36)

            h.clock.advance(by: 541)
            _ = try await app.acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault, forceRefresh: true))
            let renewed = try #require(
                FormFields(transport.tokenForms.last)["client_assertion"])
            #expect(renewed != assertion, "signed again a minute before it expires")
            #expect(try Self.parts(renewed).claims["jti"] as? String != claims["jti"] as? String)
        }
    }

    @Test("sendX5C sends the chain; a certificate the app does not know is refused with AADSTS700027")
    func x5cAndUnknownCertificate() async throws {
        try await Harness.with { h in
            let transport = try IdentityPlatformClientTests.RecordingTransport()
            let app = try h.confidentialApp(
                credential: .certificate(try Self.demoCertificate(), sendX5C: true), transport: transport)
            _ = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            let assertion = try #require(FormFields(transport.sent.last?.body)["client_assertion"])
            #expect((try Self.parts(assertion).header["x5c"] as? [String])?.count == 1)

            // The daemon's certificate presented by API 1, which has a secret but no key credentials.
            let stranger = try h.confidentialApp(
                client: h.ids.api1, credential: .certificate(try Self.demoCertificate()), tenant: h.ids.externalTenant)
            let refused = await #expect(throws: MSALError.self) {
                try await stranger.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            }
            #expect(refused?.oauthError == "invalid_client")
            #expect(refused?.stsErrorCodes == [700_027])
        }
    }

    @Test("workload identity: the federated token file is read on every request, so a rotated token is used")
    func federatedTokenFile() async throws {
        try await Harness.with { h in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-wif-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("azure-identity-token")
            func mint(lifetime: Int = 3600) async throws -> String {
                let answer = try await h.admin(
                    "POST", "workload/token",
                    body: #"{"subject":"system:serviceaccount:demo:daemon","lifetimeSeconds":\#(lifetime)}"#)
                return try #require(answer["token"] as? String)
            }
            let transport = try IdentityPlatformClientTests.RecordingTransport()
            let app = try h.confidentialApp(credential: .federatedTokenFile(file), transport: transport)
            let missing = await #expect(throws: MSALError.self) {
                try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            }
            #expect(missing?.internalCode == .invalidParameter)

            let first = try await mint()
            try Data((first + "\n").utf8).write(to: file)
            let token = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            #expect(token.roles == ["User.Read.All"])
            #expect(FormFields(transport.sent.last?.body)["client_assertion"] == first)

            h.clock.advance(by: 10)
            let rotated = try await mint()
            #expect(rotated != first)
            try Data(rotated.utf8).write(to: file)
            _ = try await app.acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault, forceRefresh: true))
            #expect(FormFields(transport.sent.last?.body)["client_assertion"] == rotated)

            try Data(try await mint(lifetime: 60).utf8).write(to: file)
            h.clock.advance(by: 120)
            let expired = await #expect(throws: MSALError.self) {
                try await app.acquireTokenForClient(
                    ClientCredentialParameters(scopes: h.graphDefault, forceRefresh: true))
            }
            #expect(expired?.stsErrorCodes == [700_024])
        }
    }

    @Test("an assertion callback is asked on every request with the client id and token endpoint")
    func assertionCallback() async throws {
        try await Harness.with { h in
            let asked = Locked<[ClientAssertionRequest]>([])
            let http = h
            let app = try h.confidentialApp(
                credential: .assertion { request in
                    asked.withLock { $0.append(request) }
                    let answer = try await http.admin(
                        "POST", "workload/token", body: #"{"subject":"system:serviceaccount:demo:daemon"}"#)
                    return answer["token"] as? String ?? ""
                })
            _ = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: h.graphDefault))
            _ = try await app.acquireTokenForClient(
                ClientCredentialParameters(scopes: h.graphDefault, forceRefresh: true))
            let requests = asked.withLock { $0 }
            #expect(requests.count == 2)
            #expect(requests.allSatisfy { $0.clientID == h.ids.confidentialClient })
            #expect(requests.first?.tokenEndpoint.path.hasSuffix("/oauth2/v2.0/token") == true)
        }
    }
}
