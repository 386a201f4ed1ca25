import Crypto
import Foundation
import _CryptoExtras

/// The signing keys of each issuer (`jwks_uri`), fetched on first use and refetched once when a token
/// names an unknown `kid` (key rollover).
actor JWKSCache {
    private let transport: any HTTPTransport
    private var keys: [URL: [String: _RSA.Signing.PublicKey]] = [:]

    init(transport: any HTTPTransport) { self.transport = transport }

    /// The RSA key `kid` of `jwksURI`.
    ///
    /// - Throws: ``MSALError`` `invalidIDToken` when no such key exists after one refresh; transport errors.
    func key(kid: String, jwksURI: URL) async throws -> _RSA.Signing.PublicKey {
        if let key = keys[jwksURI]?[kid] { return key }
        keys[jwksURI] = try await fetch(jwksURI)
        guard let key = keys[jwksURI]?[kid] else {
            throw MSALError.internal(
                .invalidIDToken, "The ID token is signed with key '\(kid)', which the issuer does not publish.")
        }
        return key
    }

    private func fetch(_ uri: URL) async throws -> [String: _RSA.Signing.PublicKey] {
        let response = try await transport.send(
            HTTPRequest(method: .get, url: uri, headers: [("Accept", "application/json")]))
        guard response.status == 200,
            let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any],
            let list = object["keys"] as? [[String: Any]]
        else {
            throw MSALError.internal(
                .invalidResponse,
                "The signing keys at \(uri.absoluteString) could not be read (HTTP \(response.status)).")
        }
        var out: [String: _RSA.Signing.PublicKey] = [:]
        for jwk in list where (jwk["kty"] as? String) == "RSA" {
            guard let kid = jwk["kid"] as? String,
                let n = (jwk["n"] as? String).flatMap({ Base64URL.decode($0) }),
                let e = (jwk["e"] as? String).flatMap({ Base64URL.decode($0) }),
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { continue }
            out[kid] = key
        }
        return out
    }
}
