import Foundation

/// The one error type of the library, shaped like MSAL for iOS/macOS's `NSError`s in `MSALErrorDomain`.
///
/// `code` carries MSAL's raw values (`interactionRequired` = -50002, …); the OAuth details of a server
/// answer are in the properties and, under MSAL's key names, in `errorUserInfo`.
public struct MSALError: Error, CustomNSError, CustomStringConvertible, Sendable {
    /// MSAL's public error codes (`MSALError.h`).
    public enum Code: Int, Sendable {
        case `internal` = -50000
        case workplaceJoinRequired = -50001
        case interactionRequired = -50002
        case serverDeclinedScopes = -50003
        case serverProtectionPoliciesRequired = -50004
        case userCanceled = -50005
        case serverError = -50006
        case insufficientDeviceStrength = -50007
        case mdmEnrollmentCompletedNeedsRetry = -50008
        case serverInvalidRequestResetPasswordRequired = -50142
    }

    /// Finer reasons, reported under `MSALInternalErrorCodeKey` (`MSALInternalError`).
    public enum InternalCode: Int, Sendable {
        case invalidParameter = -42000
        case invalidRequest = -42002
        case invalidClient = -42003
        case invalidGrant = -42004
        case invalidScope = -42005
        case unauthorizedClient = -42006
        case unhandledResponse = -42007
        case unexpected = -42008
        case unexpectedHTTPResponse = -42009
        case failedAuthorityValidation = -42010
        case invalidRedirectURI = -42011
        case mismatchedUser = -42101
        case ambiguousAccount = -42102
        case authorizationFailed = -42104
        case accountRequired = -42106
        case sessionCanceled = -42401
        case invalidState = -42501
        case invalidResponse = -42600
        case nonHTTPSRedirect = -42602
        case invalidIDToken = -42603
        case timedOut = -42604
        case transportFailed = -42605
        case throttled = -42606
        case cacheCorrupted = -42607
        /// The cache file cannot be read or written (permissions, a read-only file or folder).
        case cacheUnavailable = -42608
        /// Another process held the cache's lock for longer than the wait allows.
        case cacheLocked = -42609
    }

    public static let errorDomain = "MSALErrorDomain"

    public let code: Code
    public var internalCode: InternalCode?
    /// A description for developers (not for end users).
    public var message: String
    public var oauthError: String?
    public var oauthSubError: String?
    public var stsErrorCodes: [Int]
    public var httpStatus: Int?
    public var correlationID: UUID?
    public var grantedScopes: [String]?
    public var declinedScopes: [String]?
    /// `Retry-After`, in seconds, of a throttled answer.
    public var retryAfter: TimeInterval?
    /// A claims challenge to send with the next interactive sign-in (JSON, decoded from base64).
    public var claimsChallenge: String?

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

    public var errorCode: Int { code.rawValue }

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
    public static let oauthError = "MSALOAuthErrorKey"
    public static let oauthSubError = "MSALOAuthSubErrorKey"
    public static let errorDescription = "MSALErrorDescriptionKey"
    public static let stsErrorCodes = "MSALSTSErrorCodesKey"
    public static let internalErrorCode = "MSALInternalErrorCodeKey"
    public static let httpResponseCode = "MSALHTTPResponseCodeKey"
    public static let correlationID = "MSALCorrelationIDKey"
    public static let declinedScopes = "MSALDeclinedScopesKey"
    public static let grantedScopes = "MSALGrantedScopesKey"
}
