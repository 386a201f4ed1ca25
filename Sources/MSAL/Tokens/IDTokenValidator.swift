import Crypto
import Foundation
import _CryptoExtras

/// Validates ID tokens as an OpenID Connect relying party must (OIDC Core §3.1.3.7): RS256 signature
/// from the issuer's JWKS, `iss` (the `{tenantid}` template filled from `tid`), `aud` (and `azp` when there are several),
/// `exp`, `iat` (required) and `nbf` with clock skew, `nonce`, and on refresh the same user as before.
struct IDTokenValidator: Sendable {
    /// Allowed clock difference with the server.
    static let skew: TimeInterval = 300

    let jwks: JWKSCache
    let clock: any TimeSource

    struct Expectations: Sendable {
        let issuer: String
        let jwksURI: URL
        let clientID: String
        /// The nonce sent on the authorize request (interactive sign-in only).
        let nonce: String?
        /// The `oid` (or `sub`) of the account being refreshed, which the new token must keep.
        let subject: String?
    }

    /// - Returns: the decoded token.
    /// - Throws: ``MSALError`` `invalidIDToken` naming the check that failed.
    func validate(_ token: String, _ expected: Expectations) async throws -> JWT {
        let jwt = try JWT(token)
        func fail(_ why: String) -> MSALError { .internal(.invalidIDToken, "ID token rejected: \(why).") }
        guard jwt.header["alg"] as? String == "RS256" else {
            throw fail("algorithm '\(jwt.header["alg"] as? String ?? "none")' is not RS256")
        }
        guard let kid = jwt.header["kid"] as? String else { throw fail("no kid in the header") }
        let key = try await jwks.key(kid: kid, jwksURI: expected.jwksURI)
        guard
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: jwt.signature),
                for: SHA256.hash(data: Data(jwt.signingInput.utf8)), padding: .insecurePKCS1v1_5)
        else { throw fail("the signature does not verify") }
        let tid = jwt.string("tid") ?? ""
        let issuer = expected.issuer.replacingOccurrences(of: "{tenantid}", with: tid)
        guard let iss = jwt.string("iss"), iss == issuer else {
            throw fail("issuer '\(jwt.string("iss") ?? "")' is not '\(issuer)'")
        }
        guard jwt.audiences.contains(expected.clientID) else { throw fail("audience is not this client") }
        if jwt.audiences.count > 1, jwt.string("azp") != expected.clientID {
            throw fail("several audiences and azp is not this client")
        }
        let now = clock.now().timeIntervalSince1970
        guard let exp = jwt.int("exp"), Double(exp) + Self.skew > now else { throw fail("it expired") }
        guard let iat = jwt.int("iat") else { throw fail("it has no iat") }
        if Double(iat) - Self.skew > now { throw fail("it is issued in the future") }
        if let nbf = jwt.int("nbf"), Double(nbf) - Self.skew > now { throw fail("it is not valid yet") }
        if let nonce = expected.nonce, jwt.string("nonce") != nonce {
            throw fail("the nonce does not match the request")
        }
        if let subject = expected.subject, (jwt.string("oid") ?? jwt.string("sub")) != subject {
            throw fail("it is for a different user than the account being refreshed")
        }
        return jwt
    }
}
