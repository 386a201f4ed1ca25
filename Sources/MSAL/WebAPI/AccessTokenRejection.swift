/// Why a web API refused a bearer token. Its ``message`` names the check that failed, never the token or a claim
/// that identifies the caller.
public struct AccessTokenRejection: Error, Sendable, CustomStringConvertible {
    /// The check that failed.
    public enum Reason: String, Sendable, CaseIterable {
        /// Not three base64url JSON parts.
        case malformed
        /// Signed with another algorithm than RS256 (`none` and `HS256` included).
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// Signed with a key the issuer does not publish.
        case unknownKey = "unknown_key"
        /// The signature does not verify.
        case badSignature = "bad_signature"
        /// `iss` is not the authority's (v1 or v2 form).
        case wrongIssuer = "wrong_issuer"
        /// `tid` is not among the tenants the API accepts.
        case tenantNotAllowed = "tenant_not_allowed"
        /// `aud` is not this API.
        case wrongAudience = "wrong_audience"
        /// `exp` has passed, beyond the allowed clock skew.
        case expired
        /// `nbf` is still ahead, beyond the allowed clock skew.
        case notYetValid = "not_yet_valid"
        /// The authority's metadata or signing keys could not be fetched: the token could not be checked.
        case keysUnavailable = "keys_unavailable"
    }

    /// The check that failed.
    public let reason: Reason
    /// What failed, for logs and the `error_description` of a 401.
    public let message: String

    /// A rejection.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The reason and the message.
    public var description: String { "\(reason.rawValue): \(message)" }
}
