import Crypto
import Foundation
import OutsideJSON
import _CryptoExtras

/// An issuer's signing keys (`jwks_uri`, RFC 7517): its RSA keys by `kid`; other keys are passed over.
struct JSONWebKeySet: Sendable {
    let rsaKeys: [String: _RSA.Signing.PublicKey]

    /// - Throws: ``MSALError`` `invalidResponse` when the body is not a key set, or not a JSON object within
    ///   ``JSONLimits/message``.
    init(json data: Data, uri: URL) throws {
        let object = try JSONLimits.message.object(data) {
            "The signing keys at \(uri.absoluteString) could not be read: the answer \($0)."
        }
        guard let list = object["keys"] as? [[String: Any]] else {
            throw MSALError.internal(
                .invalidResponse, "The signing keys at \(uri.absoluteString) could not be read (not a key set).")
        }
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        for jwk in list where (jwk["kty"] as? String) == "RSA" {
            guard let kid = jwk["kid"] as? String,
                let n = (jwk["n"] as? String).flatMap({ Base64URL.decode($0) }),
                let e = (jwk["e"] as? String).flatMap({ Base64URL.decode($0) }),
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { continue }
            keys[kid] = key
        }
        rsaKeys = keys
    }
}
