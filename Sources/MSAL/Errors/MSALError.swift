import Foundation

/// The one error type of the library, shaped like MSAL for iOS/macOS's `NSError`s in `MSALErrorDomain`.
///
/// `code` carries MSAL's raw values (`interactionRequired` = -50002, …); the OAuth details of a server
/// answer are in the properties and, under MSAL's key names, in `errorUserInfo`.
public struct MSALError: Error, CustomNSError, CustomStringConvertible, Sendable {
    /// MSAL's public error codes (`MSALError.h`).
    public enum Code: Int, Sendable {
        /// Most failures; ``MSALError/internalCode`` says why.
        case `internal` = -50000
        /// The device must be registered (workplace-joined); not reported on Linux.
        case workplaceJoinRequired = -50001
        /// Only an interactive sign-in can continue: no refresh token, or the server asks for the user
        /// (`interaction_required`, `login_required`, `consent_required`).
        case interactionRequired = -50002
        /// The server granted fewer scopes than requested (see ``MSALError/declinedScopes``).
        case serverDeclinedScopes = -50003
        /// The resource requires an app-protection policy (`protection_policy_required`).
        case serverProtectionPoliciesRequired = -50004
        /// The user cancelled or declined the sign-in (`access_denied`).
        case userCanceled = -50005
        /// The identity platform failed, throttled the request or is unavailable.
        case serverError = -50006
        /// The device does not meet the strength requirement; not reported on Linux.
        case insufficientDeviceStrength = -50007
        /// Device-management enrollment finished and the request should be retried; not reported on Linux.
        case mdmEnrollmentCompletedNeedsRetry = -50008
        /// The user must reset their password; not reported on Linux.
        case serverInvalidRequestResetPasswordRequired = -50142
    }

    /// Finer reasons, reported under `MSALInternalErrorCodeKey` (`MSALInternalError`).
    public enum InternalCode: Int, Sendable {
        /// A parameter the app passed is not valid (an empty client id or username, a malformed authority).
        case invalidParameter = -42000
        /// The server answered `invalid_request`.
        case invalidRequest = -42002
        /// The server answered `invalid_client`.
        case invalidClient = -42003
        /// The server answered `invalid_grant`.
        case invalidGrant = -42004
        /// The server answered `invalid_scope`.
        case invalidScope = -42005
        /// The server answered `unauthorized_client`.
        case unauthorizedClient = -42006
        /// The server failed (HTTP 5xx) or answered in a way the flow cannot continue from.
        case unhandledResponse = -42007
        /// Something the library did not expect happened.
        case unexpected = -42008
        /// The server answered with an HTTP status and a body that is not an OAuth error.
        case unexpectedHTTPResponse = -42009
        /// The authority's OpenID configuration names an issuer that does not belong to it.
        case failedAuthorityValidation = -42010
        /// The redirect URI is not a loopback `http` URI, which an interactive sign-in on Linux needs.
        case invalidRedirectURI = -42011
        /// The user who signed in is not the one the request was for (MSAL's code; not reported here).
        case mismatchedUser = -42101
        /// Several accounts are cached and the call needs one.
        case ambiguousAccount = -42102
        /// The server answered with an OAuth error that has no more specific code.
        case authorizationFailed = -42104
        /// A silent request named no account.
        case accountRequired = -42106
        /// The sign-in session was cancelled (MSAL's code; not reported here).
        case sessionCanceled = -42401
        /// The redirect's `state` does not match the request's.
        case invalidState = -42501
        /// A server answer lacks what the protocol requires.
        case invalidResponse = -42600
        /// A redirect to a non-https URL (MSAL's code; not reported here).
        case nonHTTPSRedirect = -42602
        /// The ID token is malformed or fails validation (signature, issuer, audience, nonce, lifetime).
        case invalidIDToken = -42603
        /// An interactive sign-in, a device code or a password reset ran out of time.
        case timedOut = -42604
        /// The request did not reach the server or its answer did not arrive, or the redirect listener could not start.
        case transportFailed = -42605
        /// The identity platform is throttling requests (HTTP 429); see ``MSALError/retryAfter``.
        case throttled = -42606
        /// The token cache's bytes are not a token cache.
        case cacheCorrupted = -42607
        /// The cache file cannot be read or written (permissions, a read-only file or folder).
        case cacheUnavailable = -42608
        /// Another process held the cache's lock for longer than the wait allows.
        case cacheLocked = -42609
        /// Another process saved the partition first; the change is applied again to its version.
        case cacheConflict = -42610
    }

    /// `MSALErrorDomain`, the domain of the error bridged to `NSError`.
    public static let errorDomain = "MSALErrorDomain"

    /// The error's class: `internal` for most failures, with the reason in ``internalCode``.
    public let code: Code
    /// The finer reason, when there is one.
    public var internalCode: InternalCode?
    /// A description for developers (not for end users).
    public var message: String
    /// The OAuth `error` of the server's answer, e.g. `invalid_grant`.
    public var oauthError: String?
    /// The OAuth `suberror` of the server's answer, e.g. `consent_required`.
    public var oauthSubError: String?
    /// The `AADSTS` error codes of the server's answer.
    public var stsErrorCodes: [Int]
    /// The HTTP status of the server's answer.
    public var httpStatus: Int?
    /// The correlation id of the request that failed.
    public var correlationID: UUID?
    /// The scopes the server granted, when it declined some (``Code-swift.enum/serverDeclinedScopes``).
    public var grantedScopes: [String]?
    /// The scopes the server declined (``Code-swift.enum/serverDeclinedScopes``).
    public var declinedScopes: [String]?
    /// `Retry-After`, in seconds, of a throttled answer.
    public var retryAfter: TimeInterval?
    /// A claims challenge to send with the next interactive sign-in (JSON, decoded from base64).
    public var claimsChallenge: String?

    /// An error with a code, an optional internal reason, a message and the server's OAuth details.
    public init(
        _ code: Code, internalCode: InternalCode? = nil, _ message: String, oauthError: String? = nil,
        oauthSubError: String? = nil, stsErrorCodes: [Int] = [], httpStatus: Int? = nil, correlationID: UUID? = nil
    ) {
        self.code = code
        self.internalCode = internalCode
        self.message = message
        self.oauthError = oauthError
        self.oauthSubError = oauthSubError
        self.stsErrorCodes = stsErrorCodes
        self.httpStatus = httpStatus
        self.correlationID = correlationID
    }

    /// An error with `code` `internal` and the given internal reason.
    public static func `internal`(_ reason: InternalCode, _ message: String) -> MSALError {
        MSALError(.internal, internalCode: reason, message)
    }

    /// The ``code``'s raw value, the bridged `NSError`'s `code`.
    public var errorCode: Int { code.rawValue }

    /// The bridged `NSError`'s `userInfo`, under MSAL's keys (``MSALErrorKey``).
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message, MSALErrorKey.errorDescription: message]
        if let internalCode { info[MSALErrorKey.internalErrorCode] = internalCode.rawValue }
        if let oauthError { info[MSALErrorKey.oauthError] = oauthError }
        if let oauthSubError { info[MSALErrorKey.oauthSubError] = oauthSubError }
        if !stsErrorCodes.isEmpty { info[MSALErrorKey.stsErrorCodes] = stsErrorCodes }
        if let httpStatus { info[MSALErrorKey.httpResponseCode] = String(httpStatus) }
        if let correlationID { info[MSALErrorKey.correlationID] = correlationID.uuidString }
        if let grantedScopes { info[MSALErrorKey.grantedScopes] = grantedScopes }
        if let declinedScopes { info[MSALErrorKey.declinedScopes] = declinedScopes }
        return info
    }

    /// The code, the internal reason, the OAuth error and `AADSTS` codes, and the message.
    public var description: String {
        var parts = ["MSALError \(code) (\(code.rawValue))"]
        if let internalCode { parts.append("\(internalCode)") }
        if let oauthError { parts.append(oauthError + (oauthSubError.map { "/\($0)" } ?? "")) }
        if !stsErrorCodes.isEmpty { parts.append("AADSTS" + stsErrorCodes.map(String.init).joined(separator: ",")) }
        return parts.joined(separator: " ") + ": " + message
    }
}

/// The `userInfo` keys of MSAL for iOS/macOS; each value equals its name.
public enum MSALErrorKey {
    /// The server's OAuth `error`.
    public static let oauthError = "MSALOAuthErrorKey"
    /// The server's OAuth `suberror`.
    public static let oauthSubError = "MSALOAuthSubErrorKey"
    /// The error's message (also under `NSLocalizedDescriptionKey`).
    public static let errorDescription = "MSALErrorDescriptionKey"
    /// The server's `AADSTS` error codes, as `[Int]`.
    public static let stsErrorCodes = "MSALSTSErrorCodesKey"
    /// The ``MSALError/InternalCode`` raw value, as `Int`.
    public static let internalErrorCode = "MSALInternalErrorCodeKey"
    /// The HTTP status of the server's answer, as a `String`.
    public static let httpResponseCode = "MSALHTTPResponseCodeKey"
    /// The correlation id of the request, as a `String`.
    public static let correlationID = "MSALCorrelationIDKey"
    /// The scopes the server declined, as `[String]`.
    public static let declinedScopes = "MSALDeclinedScopesKey"
    /// The scopes the server granted, as `[String]`.
    public static let grantedScopes = "MSALGrantedScopesKey"
}
