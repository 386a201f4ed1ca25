import Foundation
import OutsideJSON

/// An OAuth error body (RFC 6749 §5.2) with Entra's extras.
struct OAuthErrorResponse: Sendable, Equatable {
    let error: String
    let description: String?
    let subError: String?
    let errorCodes: [Int]
    let correlationID: String?
    let claims: String?

    /// `nil` when the body is not a JSON object within ``JSONLimits/message`` or has no `error` string.
    init?(json data: Data) {
        guard let object = try? JSONLimits.message.object(data), let error = object["error"] as? String
        else { return nil }
        self.error = error
        description = object["error_description"] as? String
        subError = object["suberror"] as? String
        errorCodes = (object["error_codes"] as? [Any])?.compactMap { ($0 as? NSNumber)?.intValue ?? Int("\($0)") } ?? []
        correlationID = object["correlation_id"] as? String
        claims = object["claims"] as? String
    }

    /// The error as the library reports it; `access_denied` is the user cancelling.
    func msalError(httpStatus: Int?, correlationID fallback: UUID?) -> MSALError {
        let code = Self.classify(error: error, subError: subError)
        let message = description.map { Self.firstLine($0) } ?? error
        return MSALError(
            code, message.isEmpty && code.category == .internal ? error : message,
            oauthError: error, oauthSubError: subError, stsErrorCodes: errorCodes, httpStatus: httpStatus,
            correlationID: correlationID.flatMap(UUID.init(uuidString:)) ?? fallback, claimsChallenge: claims)
    }

    /// MSAL's mapping of OAuth error strings (`MSIDErrorCodeForOAuthError`, `MSALErrorConverter`).
    static func classify(error: String, subError: String?) -> MSALError.Code {
        switch error.lowercased() {
        case "interaction_required", "login_required", "consent_required": .interactionRequired
        case "access_denied": .userCanceled
        case "server_error", "temporarily_unavailable": .serverError
        case "unauthorized_client" where subError == "protection_policy_required": .serverProtectionPoliciesRequired
        case "invalid_grant": .invalidGrant
        case "invalid_request": .invalidRequest
        case "invalid_client": .invalidClient
        case "invalid_scope": .invalidScope
        case "unauthorized_client": .unauthorizedClient
        default: .authorizationFailed
        }
    }

    /// The description's first sentence (`AADSTS90002: Tenant 'x' not found`), without its full stop; else the
    /// error.
    var firstSentence: String {
        guard let description else { return error }
        let line = Self.firstLine(description)
        let sentence = line.range(of: ". ").map { String(line[..<$0.lowerBound]) } ?? line
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }

    /// `AADSTS50126: Error validating credentials…` without the trace lines.
    private static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\r\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? Substring(text))
    }
}
