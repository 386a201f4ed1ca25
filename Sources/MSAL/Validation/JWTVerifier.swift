import Crypto
import Foundation
import _CryptoExtras

/// The checks every token this library trusts passes, ID tokens (``IDTokenValidator``) and a web API's access tokens
/// (``AccessTokenValidator``) alike, in this order: an allowed algorithm (RS256), a `kid` the issuer's key set has
/// (``SigningKeyStore``), the RS256 signature, the issuer (its `{tenantid}` filled from `tid`), the audience, and
/// `exp`, `iat` (when required) and `nbf` with clock skew. Each caller adds its own rules and words the failures.
struct JWTVerifier: Sendable {
    /// The signature algorithms accepted.
    static let allowedAlgorithms: Set<String> = ["RS256"]

    /// What a token must be.
    struct Expectations: Sendable {
        /// Where the issuer's signing keys are.
        let jwksURI: URL
        /// The issuers accepted; `{tenantid}` in one is filled from the token's `tid` (or nothing).
        let issuers: [String]
        /// `aud`, or one of its values, must be one of these; lower-cased when ``audiencesIgnoreCase``.
        let audiences: Set<String>
        /// Whether audiences are compared ignoring case.
        let audiencesIgnoreCase: Bool
        /// Allowed difference between the issuer's clock and this one.
        let skew: TimeInterval
        /// Whether a token without `iat`, or issued in the future, is refused.
        let requiresIssuedAt: Bool
    }

    /// The check that failed.
    enum Failure: Error {
        /// `alg` (the caller's text, or `nil` when absent) is not allowed.
        case unsupportedAlgorithm(String?)
        /// The header has no `kid`.
        case noKeyID
        /// The key set lacks `kid`: just fetched (`refetched`), or fetched too recently to ask again.
        case unknownKey(kid: String, refetched: Bool)
        /// The key set could not be fetched (now, or when `recent`, a moment ago) with `error`.
        case keysUnavailable(any Error, recent: Bool)
        /// The signature does not verify.
        case badSignature
        /// `iss` (`found`) is none of the issuers; `expected` is the first, filled.
        case wrongIssuer(found: String?, expected: String)
        /// `aud` is none of the audiences.
        case wrongAudience
        /// `exp` is absent or passed beyond the skew.
        case expired
        /// `iat` is absent although required.
        case noIssuedAt
        /// `iat` is ahead beyond the skew.
        case issuedInFuture
        /// `nbf` is ahead beyond the skew.
        case notYetValid
    }

    let keys: SigningKeyStore
    /// The time the lifetime is checked at.
    let clock: any TimeSource

    /// Checks `jwt` against the expectations `expected` answers; it is asked once the header passed, so a token with
    /// a wrong header costs no fetch.
    ///
    /// - Throws: ``Failure``, or what `expected` throws.
    func verify(_ jwt: JWT, against expected: () async throws -> Expectations) async throws {
        guard let algorithm = jwt.header["alg"] as? String, Self.allowedAlgorithms.contains(algorithm) else {
            throw Failure.unsupportedAlgorithm(jwt.header["alg"] as? String)
        }
        guard let kid = jwt.header["kid"] as? String else { throw Failure.noKeyID }
        let expected = try await expected()
        let key: _RSA.Signing.PublicKey
        do throws(SigningKeyStore.Failure) {
            key = try await keys.key(kid, jwksURI: expected.jwksURI)
        } catch {
            switch error {
            case .unknownKey(let refetched): throw Failure.unknownKey(kid: kid, refetched: refetched)
            case .unavailable(let error, let recent): throw Failure.keysUnavailable(error, recent: recent)
            }
        }
        guard
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: jwt.signature),
                for: SHA256.hash(data: Data(jwt.signingInput.utf8)), padding: .insecurePKCS1v1_5)
        else { throw Failure.badSignature }
        try checkIssuer(jwt, expected)
        let audiences = jwt.audiences
        let audienceMatches =
            expected.audiencesIgnoreCase
            ? audiences.contains { expected.audiences.contains($0.lowercased()) }
            : audiences.contains { expected.audiences.contains($0) }
        guard audienceMatches else { throw Failure.wrongAudience }
        try checkLifetime(jwt, expected)
    }

    private func checkIssuer(_ jwt: JWT, _ expected: Expectations) throws(Failure) {
        let tid = jwt.string("tid") ?? ""
        let issuers = expected.issuers.map { $0.replacingOccurrences(of: "{tenantid}", with: tid) }
        guard let iss = jwt.string("iss"), issuers.contains(iss) else {
            throw .wrongIssuer(found: jwt.string("iss"), expected: issuers.first ?? "")
        }
    }

    private func checkLifetime(_ jwt: JWT, _ expected: Expectations) throws(Failure) {
        let now = clock.now().timeIntervalSince1970
        guard let exp = jwt.numericDate("exp"), exp + expected.skew > now else { throw .expired }
        if expected.requiresIssuedAt {
            guard let iat = jwt.numericDate("iat") else { throw .noIssuedAt }
            if iat - expected.skew > now { throw .issuedInFuture }
        }
        if let nbf = jwt.numericDate("nbf"), nbf - expected.skew > now { throw .notYetValid }
    }
}
