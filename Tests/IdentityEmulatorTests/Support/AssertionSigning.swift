import Crypto
import Foundation
import IdentityEmulator
import _CryptoExtras

/// Builds and signs client assertions in the tests, independently of the emulator's code.
enum TestAssertion {
    static let jwtBearer = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// The demo daemon's certificate as DER, and its private key.
    static let demoCertificateDER = der(pem: Directory.DemoIDs.daemonCertificatePEM)
    static let demoKey = try! _RSA.Signing.PrivateKey(pemRepresentation: Directory.DemoIDs.daemonPrivateKeyPEM)
    static var demoSHA256: Data { Data(SHA256.hash(data: demoCertificateDER)) }
    static var demoSHA1: Data { Data(Insecure.SHA1.hash(data: demoCertificateDER)) }

    /// How a thumbprint or segment is written: SDKs use all three (`server-side.md` §1.2).
    enum Encoding: String, Sendable, CaseIterable {
        case base64URL, base64URLPadded, base64
    }

    static func encode(_ data: Data, _ encoding: Encoding = .base64URL) -> String {
        let base64 = data.base64EncodedString()
        switch encoding {
        case .base64: return base64
        case .base64URLPadded:
            return base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        case .base64URL:
            return encode(data, .base64URLPadded).replacingOccurrences(of: "=", with: "")
        }
    }

    /// Signs `header` and `claims` with `key`: PSS for a `PS…` `alg`, PKCS #1 v1.5 otherwise (SHA-256).
    static func sign(header: [String: Any], claims: [String: Any], key: _RSA.Signing.PrivateKey) throws -> String {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        let input =
            encode(try JSONSerialization.data(withJSONObject: header, options: options)) + "."
            + encode(try JSONSerialization.data(withJSONObject: claims, options: options))
        let padding: _RSA.Signing.Padding =
            (header["alg"] as? String)?.hasPrefix("PS") == true ? .PSS : .insecurePKCS1v1_5
        let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: padding)
        return input + "." + encode(signature.rawRepresentation)
    }

    /// The usual claims: `iss` = `sub` = the client, `aud`, a fresh `jti`, `nbf` now, `exp` ten minutes on.
    static func claims(
        client: String, audience: String, now: Int = Int(TestEmulator.epoch.timeIntervalSince1970), lifetime: Int = 600,
        jti: String = UUID().uuidString
    ) -> [String: Any] {
        ["iss": client, "sub": client, "aud": audience, "jti": jti, "nbf": now, "exp": now + lifetime]
    }

    /// A PS256 assertion for the demo daemon, selected by `x5t#S256` (base64url), as current SDKs send it.
    static func demo(audience: String, claims extra: [String: Any] = [:]) throws -> String {
        var claims = claims(client: Directory.DemoIDs.confidentialClient, audience: audience)
        claims.merge(extra) { $1 }
        return try sign(
            header: ["alg": "PS256", "typ": "JWT", "x5t#S256": encode(demoSHA256)], claims: claims, key: demoKey)
    }

    private static func der(pem: String) -> Data {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Data(base64Encoded: body)!
    }
}

extension TestEmulator {
    /// The token endpoint of a tenant: a client assertion's `aud`.
    func tokenEndpoint(_ tenant: String) -> String { "\(base)/\(tenant)/oauth2/v2.0/token" }

    /// A client-credentials request authenticated by a client assertion.
    func clientCredentials(
        tenant: String? = nil, client: String? = nil, assertion: String,
        scope: String = "https://graph.microsoft.com/.default",
        assertionType: String = TestAssertion.jwtBearer
    ) async throws -> HTTPResult {
        try await token(
            tenant ?? ids.contosoTenant,
            [
                ("grant_type", "client_credentials"), ("client_id", client ?? ids.confidentialClient), ("scope", scope),
                ("client_assertion_type", assertionType), ("client_assertion", assertion),
            ])
    }

    /// A client-credentials request authenticated by the daemon's secret.
    func daemonToken(scope: String, tenant: String? = nil) async throws -> HTTPResult {
        try await token(
            tenant ?? ids.contosoTenant,
            [
                ("grant_type", "client_credentials"), ("client_id", ids.confidentialClient),
                ("client_secret", ids.confidentialSecret), ("scope", scope),
            ])
    }
}

extension HTTPResult {
    /// The AADSTS code of an error answer.
    var errorCode: Int? {
        get throws { (try json["error_codes"] as? [Int])?.first }
    }
}
