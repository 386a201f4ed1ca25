import Foundation

/// The errors of client assertions (certificates and federated credentials), as `protocol.md` §3.4 and
/// `server-side.md` §1.4 and §5.4 record them.
extension EntraError {
    private static let certificateDocs =
        "Review the documentation at https://learn.microsoft.com/entra/identity-platform/certificate-credentials ."
    private static let federationDocs =
        "Please check your federated identity credential Subject, Audience and Issuer against the presented assertion. https://learn.microsoft.com/entra/workload-id/workload-identity-federation"

    /// `client_assertion_type` is not `urn:ietf:params:oauth:client-assertion-type:jwt-bearer`.
    static let unexpectedAssertionType = EntraError(
        error: "invalid_request", code: 90011, message: "Unexpected client assertion type.")

    /// Not three base64url segments of JSON.
    static let malformedAssertion = EntraError(
        error: "invalid_request", code: 50027, message: "JWT token is invalid or malformed.")

    static func unsupportedAssertionAlgorithm(_ algorithm: String) -> EntraError {
        EntraError(
            status: .unauthorized, error: "invalid_client", code: 5_002_738,
            message:
                "Invalid JWT token. '\(algorithm)' is not a supported signature algorithm. Supported signing algorithms are: 'RS256,RS384,RS512'"
        )
    }

    static let noAssertionKeySelector = EntraError(
        status: .unauthorized, error: "invalid_client", code: 5_002_723,
        message:
            "Invalid JWT token. No certificate SHA-1 thumbprint, certificate SHA-256 thumbprint, nor keyId specified in token header."
    )

    /// No registered key has the header's thumbprint or `kid`.
    static func assertionKeyNotFound(thumbprint: String, clientID: String) -> EntraError {
        EntraError(
            status: .unauthorized, error: "invalid_client", code: 700027,
            message:
                "Client assertion contains an invalid signature. [Reason - The key was not found., Thumbprint of key used by client: '\(thumbprint)', Please visit the Azure Portal, Graph Explorer or directly use MS Graph to see configured keys for app Id '\(clientID)'. \(certificateDocs)]"
        )
    }

    static func badAssertionSignature(thumbprint: String) -> EntraError {
        EntraError(
            status: .unauthorized, error: "invalid_client", code: 700027,
            message:
                "Client assertion contains an invalid signature. [Reason - The provided signature value did not match the expected signature value., Thumbprint of key used by client: '\(thumbprint)']"
        )
    }

    static func missingAssertionClaim(_ name: String) -> EntraError {
        EntraError(
            error: "invalid_request", code: 90014,
            message:
                "The required field '\(name)' is missing from the credential. Ensure that you have all the necessary parameters for the login request."
        )
    }

    static let assertionClientMismatch = EntraError(
        status: .unauthorized, error: "invalid_client", code: 700021,
        message:
            "Client assertion application identifier doesn't match 'client_id' parameter. Review the documentation at https://docs.microsoft.com/azure/active-directory/develop/active-directory-certificate-credentials ."
    )

    static let assertionSubjectMismatchesIssuer = EntraError(
        status: .unauthorized, error: "invalid_client", code: 50048,
        message: "Subject mismatches Issuer claim in the client assertion. Contact the tenant admin.")

    static let assertionAudienceMismatch = EntraError(
        status: .unauthorized, error: "invalid_client", code: 700023,
        message: "Client assertion audience claim does not match Realm issuer. \(certificateDocs)")

    /// Outside `nbf`…`exp`; a missing claim prints as 1970-01-01, as ESTS does.
    static func assertionTimeRange(now: Date, notBefore: Date?, expires: Date?) -> EntraError {
        let epoch = Date(timeIntervalSince1970: 0)
        return EntraError(
            status: .unauthorized, error: "invalid_client", code: 700024,
            message:
                "Client assertion is not within its valid time range. Current time: \(now.assertionTimestamp), assertion valid from \((notBefore ?? epoch).assertionTimestamp), expiry time of assertion \((expires ?? epoch).assertionTimestamp). \(certificateDocs)"
        )
    }

    /// A different assertion presented a `jti` already used (the emulator's choice of code and text).
    static let assertionIdentifierReused = EntraError(
        status: .unauthorized, error: "invalid_client", code: 50013,
        message: "Assertion is invalid: the 'jti' claim was already used by another assertion.")

    static func noFederatedIssuer(_ issuer: String) -> EntraError {
        EntraError(
            status: .unauthorized, error: "invalid_client", code: 700211,
            message:
                "No matching federated identity record found for presented assertion issuer '\(issuer)'. \(federationDocs)"
        )
    }

    static func noFederatedSubject(_ subject: String) -> EntraError {
        EntraError(
            status: .unauthorized, error: "invalid_client", code: 700213,
            message:
                "No matching federated identity record found for presented assertion subject '\(subject)'. \(federationDocs)"
        )
    }

    static func noFederatedAudience(_ audience: String) -> EntraError {
        EntraError(
            status: .unauthorized, error: "invalid_client", code: 700212,
            message:
                "No matching federated identity record found for presented assertion audience '\(audience)'. \(federationDocs)"
        )
    }

    /// The issuer's keys cannot be fetched: only the built-in workload issuer's are reachable offline.
    static let externalOIDCEndpointFailed = EntraError(
        error: "invalid_request", code: 50166, message: "Request to External OIDC endpoint failed.")

    static func badFederatedSignature(keyID: String) -> EntraError {
        EntraError(
            status: .unauthorized, error: "invalid_client", code: 700027,
            message:
                "Client assertion failed signature validation. [Reason - The key was not found or the signature did not match., Key id used by client: '\(keyID)']"
        )
    }
}

extension Date {
    /// `2023-12-11T23:52:19.6223401Z`, the times in ESTS's assertion errors.
    var assertionTimestamp: String {
        let seconds = timeIntervalSince1970.rounded(.down)
        let ticks = Int(((timeIntervalSince1970 - seconds) * 10_000_000).rounded(.down))
        return Date(timeIntervalSince1970: seconds).graphTimestamp + "." + String(format: "%07d", ticks) + "Z"
    }
}
