import Foundation

/// A client assertion (RFC 7523 §2.2, Entra's certificate credentials): a JWT whose header names the
/// certificate by its SHA-256 thumbprint and whose claims bind it to one client and token endpoint.
struct ClientAssertion: Sendable {
    let certificate: ClientCertificate
    let sendX5C: Bool
    let clientID: String
    /// The token endpoint the assertion is for.
    let audience: String
    /// The `jti`, unique per assertion.
    let id: String
    let issuedAt: Date
    let lifetime: TimeInterval

    /// `header.claims.signature`, each part base64url without padding.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when the key cannot sign.
    func signed() throws -> String {
        var header: [String: any Sendable] = [
            "alg": certificate.algorithm.rawValue, "typ": "JWT", "x5t#S256": certificate.sha256Thumbprint,
        ]
        if sendX5C { header["x5c"] = certificate.chain.map { $0.base64EncodedString() } }
        let now = Int(issuedAt.timeIntervalSince1970)
        let claims: [String: any Sendable] = [
            "aud": audience, "iss": clientID, "sub": clientID, "jti": id,
            "nbf": now, "iat": now, "exp": now + Int(lifetime),
        ]
        let input = "\(try Self.encode(header)).\(try Self.encode(claims))"
        do {
            return "\(input).\(Base64URL.encode(try certificate.sign(input)))"
        } catch {
            throw MSALError.internal(
                .invalidParameter, "The certificate's key could not sign the client assertion.", underlyingError: error)
        }
    }

    private static func encode(_ object: [String: any Sendable]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Base64URL.encode(data)
    }
}

/// Random (version 4) UUIDs as text, from an injected random source.
enum UUIDText {
    static func random(_ source: any RandomSource) -> String {
        var bytes = source.bytes(16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let uuid = (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
        return UUID(uuid: uuid).uuidString.lowercased()
    }
}
