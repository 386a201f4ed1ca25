import Foundation

/// Validates ID tokens as an OpenID Connect relying party must (OIDC Core §3.1.3.7): the checks every token passes
/// (``JWTVerifier``: RS256 signature from the issuer's JWKS, `iss` with the `{tenantid}` template filled from `tid`,
/// `aud`, `exp`, `iat` (required) and `nbf` with clock skew), then an ID token's own: `azp` when there are several
/// audiences, `nonce`, and on refresh the same user as before.
struct IDTokenValidator: Sendable {
    /// Allowed clock difference with the server.
    static let skew: TimeInterval = 300

    let verifier: JWTVerifier

    /// A validator taking the issuers' keys from `keys` and the time from `clock`.
    init(keys: SigningKeyStore, clock: any TimeSource) {
        verifier = JWTVerifier(keys: keys, clock: clock)
    }

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
    /// - Throws: ``MSALError`` `invalidIDToken` naming the check that failed; the error of a failed key fetch.
    func validate(_ token: String, _ expected: Expectations) async throws -> JWT {
        let jwt = try JWT(token)
        do {
            try await verifier.verify(jwt) {
                JWTVerifier.Expectations(
                    jwksURI: expected.jwksURI, issuers: [expected.issuer], audiences: [expected.clientID],
                    audiencesIgnoreCase: false, skew: Self.skew, requiresIssuedAt: true)
            }
        } catch let failure as JWTVerifier.Failure {
            throw Self.error(failure)
        }
        if jwt.audiences.count > 1, jwt.string("azp") != expected.clientID {
            throw Self.rejected("several audiences and azp is not this client")
        }
        if let nonce = expected.nonce, jwt.string("nonce") != nonce {
            throw Self.rejected("the nonce does not match the request")
        }
        if let subject = expected.subject, (jwt.string("oid") ?? jwt.string("sub")) != subject {
            throw Self.rejected("it is for a different user than the account being refreshed")
        }
        return jwt
    }

    private static func rejected(_ why: String) -> MSALError {
        .internal(.invalidIDToken, "ID token rejected: \(why).")
    }

    /// The error for a failed check; a failed key fetch is reported as it failed.
    private static func error(_ failure: JWTVerifier.Failure) -> any Error {
        switch failure {
        case .unsupportedAlgorithm(let algorithm): rejected("algorithm '\(algorithm ?? "none")' is not RS256")
        case .noKeyID: rejected("no kid in the header")
        case .unknownKey(let kid, let refetched):
            MSALError.internal(
                .invalidIDToken,
                "The ID token is signed with key '\(kid)', which the issuer does not publish"
                    + (refetched ? "." : " (its keys were fetched less than five minutes ago)."))
        case .keysUnavailable(let error, _): error
        case .badSignature: rejected("the signature does not verify")
        case .wrongIssuer(let found, let expected): rejected("issuer '\(found ?? "")' is not '\(expected)'")
        case .wrongAudience: rejected("audience is not this client")
        case .expired: rejected("it expired")
        case .noIssuedAt: rejected("it has no iat")
        case .issuedInFuture: rejected("it is issued in the future")
        case .notYetValid: rejected("it is not valid yet")
        }
    }
}
