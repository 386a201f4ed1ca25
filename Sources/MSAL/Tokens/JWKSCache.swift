import Crypto
import Foundation
import _CryptoExtras

/// The signing keys of each issuer (`jwks_uri`), fetched on first use and refetched once when a token
/// names an unknown `kid` (key rollover).
actor JWKSCache {
    private let client: IdentityPlatformClient
    private var keys: [URL: [String: _RSA.Signing.PublicKey]] = [:]

    init(client: IdentityPlatformClient) { self.client = client }

    /// The RSA key `kid` of `jwksURI`.
    ///
    /// - Throws: ``MSALError`` `invalidIDToken` when no such key exists after one refresh; transport errors.
    func key(kid: String, jwksURI: URL) async throws -> _RSA.Signing.PublicKey {
        if let key = keys[jwksURI]?[kid] { return key }
        keys[jwksURI] = try await client.signingKeys(jwksURI).rsaKeys
        guard let key = keys[jwksURI]?[kid] else {
            throw MSALError.internal(
                .invalidIDToken, "The ID token is signed with key '\(kid)', which the issuer does not publish.")
        }
        return key
    }
}
