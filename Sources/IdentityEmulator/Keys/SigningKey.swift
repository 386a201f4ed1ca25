import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// The RSA-2048 key the emulator signs tokens with, and its self-signed certificate for the JWKS.
///
/// As in Entra, `kid` and `x5t` are both the base64url SHA-1 thumbprint of the certificate.
struct SigningKey: Sendable {
    let privateKey: _RSA.Signing.PrivateKey
    let certificateDER: [UInt8]
    let kid: String
    /// `base64url({"typ":"JWT","alg":"RS256","kid":…})`, the same for every token.
    let encodedHeader: String

    init(privateKey: _RSA.Signing.PrivateKey, certificateDER: [UInt8], kid: String) {
        self.privateKey = privateKey
        self.certificateDER = certificateDER
        self.kid = kid
        encodedHeader = Base64URL.encode(
            JSONValue.object([("typ", .string("JWT")), ("alg", .string("RS256")), ("kid", .string(kid))]).serialized)
    }

    /// Generates a fresh key and certificate (`CN=accounts.accesscontrol.windows.net`, as Entra's).
    static func generate(now: Date) throws -> SigningKey {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let name = try DistinguishedName { CommonName("accounts.accesscontrol.windows.net") }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-86_400),
            notValidAfter: now.addingTimeInterval(5 * 365 * 86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: Certificate.Extensions {},
            issuerPrivateKey: Certificate.PrivateKey(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        let der = serializer.serializedBytes
        return SigningKey(privateKey: key, certificateDER: der, kid: Base64URL.encode(Insecure.SHA1.hash(data: der)))
    }

    /// Signs `input` with RS256 (RSASSA-PKCS1-v1_5 over SHA-256).
    func sign(_ input: some DataProtocol) throws -> [UInt8] {
        let signature = try privateKey.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
        return signature.withUnsafeBytes { Array($0) }
    }

    /// Checks an RS256 signature made by this key.
    func verify(_ signature: some DataProtocol, over input: some DataProtocol) -> Bool {
        privateKey.publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input),
            padding: .insecurePKCS1v1_5)
    }

    /// The JWK, in Entra's member order.
    func jwk(issuer: String) throws -> JSONValue {
        let primitives = try privateKey.publicKey.getKeyPrimitives()
        return .object([
            ("kty", .string("RSA")),
            ("use", .string("sig")),
            ("kid", .string(kid)),
            ("x5t", .string(kid)),
            ("n", .string(Base64URL.encode(primitives.modulus))),
            ("e", .string(Base64URL.encode(primitives.publicExponent))),
            ("x5c", .array([.string(Data(certificateDER).base64EncodedString())])),
            ("cloud_instance_name", .string("microsoftonline.com")),
            ("issuer", .string(issuer)),
        ])
    }
}
