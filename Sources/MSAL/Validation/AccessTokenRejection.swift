/// Why a web API refused a bearer token. Its ``message`` is for the API's logs: it names the check that failed, never
/// the token or a claim that identifies the caller, and may name the authority's URLs and why they could not be
/// reached. A client is answered with ``Reason-swift.enum/clientMessage``, a fixed sentence per reason.
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
        /// Neither `scp` nor `roles`: not an access token issued to a client for this API (an ID token of an app that
        /// shares its registration with the API, say). Microsoft.Identity.Web's IDW10201; an API that authorizes
        /// callers by an access-control list accepts such tokens with
        /// ``AccessTokenValidator/Configuration/allowsAuthorizationByACL``.
        case noPermissions = "no_permissions"
        /// Names no calling app (`azp` in v2, `appid` in v1), as every access token does: an ID token (one whose user
        /// was given app roles carries `roles`) is not a credential for the API.
        case noClient = "no_client"

        /// A fixed sentence for the client (the `error_description` of a 401 or 503): it names the check, never
        /// the token, anything the token says, or this API's configuration and infrastructure.
        public var clientMessage: String {
            switch self {
            case .malformed: "The token is not a well-formed JWT."
            case .unsupportedAlgorithm: "The token is not signed with RS256."
            case .unknownKey: "The token is signed with a key the authority does not publish."
            case .badSignature: "The token's signature does not verify."
            case .wrongIssuer: "The token's issuer is not this API's authority."
            case .tenantNotAllowed: "The token's tenant is not among those this API accepts."
            case .wrongAudience: "The token is for another audience than this API."
            case .expired: "The token has expired."
            case .notYetValid: "The token is not valid yet."
            case .keysUnavailable: "The token cannot be checked at the moment; try again later."
            case .noPermissions: "The token has neither a scope (scp) nor an app role (roles)."
            case .noClient: "The token names no client application (azp or appid): it is not an access token."
            }
        }
    }

    /// The check that failed.
    public let reason: Reason
    /// What failed, for the API's logs; a client gets the reason's ``Reason-swift.enum/clientMessage`` instead.
    public let message: String

    /// A rejection.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The reason and the message.
    public var description: String { "\(reason.rawValue): \(message)" }
}
