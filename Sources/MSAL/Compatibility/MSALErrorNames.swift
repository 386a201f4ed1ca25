import Foundation

/// MSAL for iOS/macOS's error names, so tutorial code such as
/// `nsError.domain == MSALErrorDomain && nsError.code == MSALError.interactionRequired.rawValue` compiles.
/// As with `URLError.cancelled`, each static member is the ``MSALError/Code`` of that name.
extension MSALError {
    public static var `internal`: Code { .internal }
    public static var workplaceJoinRequired: Code { .workplaceJoinRequired }
    public static var interactionRequired: Code { .interactionRequired }
    public static var serverDeclinedScopes: Code { .serverDeclinedScopes }
    public static var serverProtectionPoliciesRequired: Code { .serverProtectionPoliciesRequired }
    public static var userCanceled: Code { .userCanceled }
    public static var serverError: Code { .serverError }
    public static var insufficientDeviceStrength: Code { .insufficientDeviceStrength }
    public static var mdmEnrollmentCompletedNeedsRetry: Code { .mdmEnrollmentCompletedNeedsRetry }
    public static var serverInvalidRequestResetPasswordRequired: Code { .serverInvalidRequestResetPasswordRequired }
}

/// The finer reason under `MSALInternalErrorCodeKey` (MSAL's `MSALInternalError`).
public typealias MSALInternalError = MSALError.InternalCode

/// The domain of every ``MSALError`` bridged to `NSError`.
public let MSALErrorDomain = MSALError.errorDomain

// The userInfo keys of a bridged ``MSALError``; each value equals its name.
public let MSALOAuthErrorKey = MSALErrorKey.oauthError
public let MSALOAuthSubErrorKey = MSALErrorKey.oauthSubError
public let MSALErrorDescriptionKey = MSALErrorKey.errorDescription
public let MSALSTSErrorCodesKey = MSALErrorKey.stsErrorCodes
public let MSALInternalErrorCodeKey = MSALErrorKey.internalErrorCode
public let MSALHTTPResponseCodeKey = MSALErrorKey.httpResponseCode
public let MSALCorrelationIDKey = MSALErrorKey.correlationID
public let MSALDeclinedScopesKey = MSALErrorKey.declinedScopes
public let MSALGrantedScopesKey = MSALErrorKey.grantedScopes
