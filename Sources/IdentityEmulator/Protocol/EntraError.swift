import Foundation
import HTTPTypes

/// An error as ESTS reports it: an OAuth `error`, an AADSTS number and its message.
///
/// Rendered by ``body(traceID:correlationID:now:)`` in Entra's exact member order.
struct EntraError: Error, Sendable, Equatable {
    var status: HTTPResponse.Status = .badRequest
    let error: String
    let code: Int
    let message: String
    var suberror: String? = nil
    /// A claims challenge (a JSON string, not base64), for `interaction_required`.
    var claims: String? = nil
    /// More members after the standard ones (native auth: `required_attributes`, `invalid_attributes`…), an `.object`.
    var details: JSONValue? = nil

    /// The `error_description`: `AADSTSnnnn: text` plus the trace lines.
    func description(traceID: String, correlationID: String, now: Date) -> String {
        "AADSTS\(code): \(message)\r\nTrace ID: \(traceID)\r\nCorrelation ID: \(correlationID)\r\nTimestamp: \(now.estsTimestamp)"
    }

    func body(traceID: String, correlationID: String, now: Date) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("error", .string(error)),
            ("error_description", .string(description(traceID: traceID, correlationID: correlationID, now: now))),
            ("error_codes", .array([.int(code)])),
            ("timestamp", .string(now.estsTimestamp)),
            ("trace_id", .string(traceID)),
            ("correlation_id", .string(correlationID)),
            ("error_uri", .string("https://login.microsoftonline.com/error?code=\(code)")),
        ]
        if let suberror { members.append(("suberror", .string(suberror))) }
        if let claims { members.append(("claims", .string(claims))) }
        if case .object(let more)? = details { members += more }
        return .object(members)
    }
}

extension EntraError {
    static func missingParameter(_ name: String) -> EntraError {
        EntraError(
            error: "invalid_request", code: 900144,
            message: "The request body must contain the following parameter: '\(name)'.")
    }

    static func invalidTenant(_ tenant: String) -> EntraError {
        EntraError(
            error: "invalid_tenant", code: 90002,
            message:
                "Tenant '\(tenant)' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant."
        )
    }

    /// The same AADSTS90002 as discovery's, with the token endpoint's `invalid_request`.
    static func tenantNotFoundAtToken(_ tenant: String) -> EntraError {
        EntraError(error: "invalid_request", code: 90002, message: invalidTenant(tenant).message)
    }

    static let invalidInstance = EntraError(
        error: "invalid_instance", code: 50049, message: "Unknown or invalid instance.")

    static func unknownClient(_ clientID: String, tenant: String) -> EntraError {
        EntraError(
            error: "unauthorized_client", code: 700016,
            message:
                "Application with identifier '\(clientID)' was not found in the directory '\(tenant)'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant."
        )
    }

    static func invalidScope(_ scope: String) -> EntraError {
        EntraError(
            error: "invalid_scope", code: 70011,
            message:
                "The provided request must include a 'scope' input parameter. The provided value for the input parameter 'scope' is not valid. The scope \(scope) is not valid."
        )
    }

    static func resourceNotFound(_ resource: String) -> EntraError {
        EntraError(
            error: "invalid_resource", code: 500011,
            message:
                "The resource principal named \(resource) was not found in the tenant. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant."
        )
    }

    static func multipleResources(_ scope: String) -> EntraError {
        EntraError(
            error: "invalid_scope", code: 28000,
            message:
                "Provided value for the input parameter scope is not valid because it contains more than one resource. Scope \(scope) is not valid."
        )
    }

    static let unsupportedGrantType = EntraError(
        error: "unsupported_grant_type", code: 70003,
        message:
            "The app requested an unsupported grant type.")

    static let malformedGrant = EntraError(
        error: "invalid_grant", code: 9_002_313,
        message:
            "Invalid request. Request is malformed or invalid.")

    static let codeRedeemed = EntraError(
        error: "invalid_grant", code: 54005,
        message:
            "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token."
    )

    static let grantExpired = EntraError(
        error: "invalid_grant", code: 70008,
        message:
            "The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource."
    )

    static let pkceMismatch = EntraError(
        error: "invalid_grant", code: 501481,
        message:
            "The Code_Verifier does not match the code_challenge supplied in the authorization request.")

    static let codeClientMismatch = EntraError(
        error: "invalid_grant", code: 70000,
        message:
            "Provided grant is invalid or malformed. The authorization code was issued to a different client.")

    static let redirectMismatchAtToken = EntraError(
        error: "invalid_grant", code: 70000,
        message:
            "Provided grant is invalid or malformed. The redirect_uri does not match the one used in the authorization request."
    )

    static let refreshClientMismatch = EntraError(
        error: "invalid_grant", code: 70000,
        message:
            "Provided grant is invalid or malformed. The refresh token was issued to a different client.",
        suberror: "client_mismatch")

    static func revoked(issued: Date, validFrom: Date) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 50173,
            message:
                "The provided grant has expired due to it being revoked, a fresh auth token is needed. The user might have changed or reset their password. The grant was issued on '\(issued.estsTimestamp)' and the TokensValidFrom date (before which tokens are not valid) for this user is '\(validFrom.estsTimestamp)'.",
            suberror: "bad_token")
    }

    /// AADSTS50057: the account was disabled (``User/accountEnabled`` false).
    static let accountDisabled = EntraError(
        error: "invalid_grant", code: 50057, message: "The user account is disabled.")

    /// AADSTS50053: too many wrong passwords in a row (smart lockout).
    static let accountLocked = EntraError(
        error: "invalid_grant", code: 50053,
        message:
            "Your account is locked because you've tried to sign in too many times with an incorrect user ID or "
            + "password.")

    static let badCredentials = EntraError(
        error: "invalid_grant", code: 50126,
        message:
            "Error validating credentials due to invalid username or password.")

    static func userNotFound(_ tenant: String) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 50034,
            message:
                "The user account {EmailHidden} does not exist in the \(tenant) directory. To sign into this application, the account must be added to the directory."
        )
    }

    static func notInTenant(_ tenant: String) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 50020,
            message:
                "User account '{EmailHidden}' from identity provider 'https://sts.windows.net/' does not exist in tenant '\(tenant)' and cannot access the application. The account needs to be added as an external user in the tenant first."
        )
    }

    static func consentRequired(client: String, scopes: String) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 65001,
            message:
                "The user or administrator has not consented to use the application with ID '\(client)'. Send an interactive authorization request for this user and resource. Scopes: \(scopes)",
            suberror: "consent_required")
    }

    static let invalidSecret = EntraError(
        status: .unauthorized, error: "invalid_client", code: 7_000_215,
        message:
            "Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app."
    )

    static let secretRequired = EntraError(
        status: .unauthorized, error: "invalid_client", code: 7_000_218,
        message:
            "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.")

    static let publicClientSentSecret = EntraError(
        status: .unauthorized, error: "invalid_client", code: 700025,
        message:
            "Client is public so neither 'client_assertion' nor 'client_secret' should be presented.")

    static let authorizationPending = EntraError(
        error: "authorization_pending", code: 70016,
        message:
            "OAuth 2.0 device flow error. Authorization is pending. Continue polling.")

    static let slowDown = EntraError(
        error: "slow_down", code: 70016,
        message:
            "OAuth 2.0 device flow error. The client is polling too frequently. Slow down.")

    static let authorizationDeclined = EntraError(
        error: "authorization_declined", code: 70000,
        message:
            "The end user denied the authorization request.")

    static let badVerificationCode = EntraError(
        error: "bad_verification_code", code: 70018,
        message:
            "Invalid verification code. The device code was not recognized or has already been used.")

    static let deviceCodeExpired = EntraError(
        error: "expired_token", code: 70019,
        message:
            "Verification code expired.")

    static func throttled(retryAfter: Int) -> EntraError {
        EntraError(
            status: .tooManyRequests, error: "temporarily_unavailable", code: 50196,
            message:
                "The server encountered a client request loop. Retry after \(retryAfter) seconds.")
    }

    static let serverError = EntraError(
        status: .internalServerError, error: "server_error", code: 90033,
        message:
            "A transient error has occurred. Please try again.")

    static let serviceUnavailable = EntraError(
        status: .serviceUnavailable, error: "temporarily_unavailable", code: 90033,
        message:
            "A transient error has occurred. Please try again.")
}
