import Crypto
import Foundation
import Locking
import _CryptoExtras

/// The built-in workload identity issuer: a stand-in for a Kubernetes cluster's service-account token
/// issuer. Its tokens are what a pod finds in `AZURE_FEDERATED_TOKEN_FILE`; apps exchange them for
/// Entra tokens through a federated credential whose issuer is `{emulator}/_emulator/workload`.
///
/// It signs with an RSA key of its own (not the emulator's), made on first use; like a cluster's, the
/// `kid` is the base64url SHA-256 of the public key's DER.
final class WorkloadIssuer: Sendable {
    /// The issuer's path under the emulator's origin.
    static let path = "/_emulator/workload"
    /// The audience Entra expects of federated tokens.
    static let defaultAudience = "api://AzureADTokenExchange"

    private let key = Locked<SigningKey?>(nil)

    /// The issuer URL (`iss`) as served from `origin`.
    static func issuer(origin: String) -> String { origin + path }

    /// The signing key, made on first use.
    ///
    /// - Throws: when a key cannot be generated.
    func signingKey() throws -> SigningKey {
        try key.withLock { stored in
            if let stored { return stored }
            let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let kid = Base64URL.encode(SHA256.hash(data: privateKey.publicKey.derRepresentation))
            let made = SigningKey(privateKey: privateKey, certificateDER: [], kid: kid)
            stored = made
            return made
        }
    }

    /// The OpenID discovery document, as a cluster's `/.well-known/openid-configuration`.
    func discovery(origin: String) -> JSONValue {
        let issuer = Self.issuer(origin: origin)
        return .object([
            ("issuer", .string(issuer)),
            ("jwks_uri", .string("\(issuer)/keys")),
            ("response_types_supported", .array([.string("id_token")])),
            ("subject_types_supported", .array([.string("public")])),
            ("id_token_signing_alg_values_supported", .array([.string("RS256")])),
        ])
    }

    /// The JWKS with the one signing key.
    ///
    /// - Throws: when a key cannot be generated.
    func keys() throws -> JSONValue {
        let key = try signingKey()
        let primitives = try key.privateKey.publicKey.getKeyPrimitives()
        return .object([
            (
                "keys",
                .array([
                    .object([
                        ("use", .string("sig")), ("kty", .string("RSA")), ("kid", .string(key.kid)),
                        ("alg", .string("RS256")), ("n", .string(Base64URL.encode(primitives.modulus))),
                        ("e", .string(Base64URL.encode(primitives.publicExponent))),
                    ])
                ])
            )
        ])
    }

    /// A projected service-account token: RS256, `kid` in the header, `aud` an array as Kubernetes writes it.
    ///
    /// - Returns: the token and its expiry.
    /// - Throws: when a key cannot be generated or signing fails.
    func token(subject: String, audience: String, lifetime: Int, now: Date, origin: String, jti: String) throws -> (
        token: String, expiresOn: Int
    ) {
        let iat = now.epochSeconds
        let claims = JSONValue.object([
            ("aud", .array([.string(audience)])),
            ("exp", .int(iat + lifetime)),
            ("iat", .int(iat)),
            ("iss", .string(Self.issuer(origin: origin))),
            ("jti", .string(jti)),
            ("nbf", .int(iat)),
            ("sub", .string(subject)),
        ])
        return (try JWT.sign(claims, with: signingKey()), iat + lifetime)
    }
}
