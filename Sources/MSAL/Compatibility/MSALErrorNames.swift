import Foundation

/// MSAL for iOS/macOS's error names, so tutorial code such as
/// `nsError.domain == MSALErrorDomain && nsError.code == MSALError.interactionRequired.rawValue` compiles.
/// As with `URLError.cancelled`, each static member is the ``MSALError/Code`` of that name.
extension MSALError {
    /// ``MSALError/Code/internal``.
    public static var `internal`: Code { .internal }
    /// ``MSALError/Code/workplaceJoinRequired``.
    public static var workplaceJoinRequired: Code { .workplaceJoinRequired }
    /// ``MSALError/Code/interactionRequired``.
    public static var interactionRequired: Code { .interactionRequired }
    /// ``MSALError/Code/serverDeclinedScopes``.
    public static var serverDeclinedScopes: Code { .serverDeclinedScopes }
    /// ``MSALError/Code/serverProtectionPoliciesRequired``.
    public static var serverProtectionPoliciesRequired: Code { .serverProtectionPoliciesRequired }
    /// ``MSALError/Code/userCanceled``.
    public static var userCanceled: Code { .userCanceled }
    /// ``MSALError/Code/serverError``.
    public static var serverError: Code { .serverError }
    /// ``MSALError/Code/insufficientDeviceStrength``.
    public static var insufficientDeviceStrength: Code { .insufficientDeviceStrength }
    /// ``MSALError/Code/mdmEnrollmentCompletedNeedsRetry``.
    public static var mdmEnrollmentCompletedNeedsRetry: Code { .mdmEnrollmentCompletedNeedsRetry }
    /// ``MSALError/Code/serverInvalidRequestResetPasswordRequired``.
    public static var serverInvalidRequestResetPasswordRequired: Code { .serverInvalidRequestResetPasswordRequired }
}

/// The finer reason under `MSALInternalErrorCodeKey` (MSAL's `MSALInternalError`).
public typealias MSALInternalError = MSALError.InternalCode

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The domain of every ``MSALError`` bridged to `NSError`.
public let MSALErrorDomain = MSALError.errorDomain

// The userInfo keys of a bridged ``MSALError``; each value equals its name. MSAL for iOS/macOS spells these
// constants (and the domain above) in UpperCamelCase, and the tutorials' code uses them by those names.

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The userInfo key `MSALOAuthErrorKey`: ``MSALErrorKey/oauthError``.
public let MSALOAuthErrorKey = MSALErrorKey.oauthError
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The userInfo key `MSALOAuthSubErrorKey`: ``MSALErrorKey/oauthSubError``.
public let MSALOAuthSubErrorKey = MSALErrorKey.oauthSubError
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The userInfo key `MSALErrorDescriptionKey`: ``MSALErrorKey/errorDescription``.
public let MSALErrorDescriptionKey = MSALErrorKey.errorDescription
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The userInfo key `MSALSTSErrorCodesKey`: ``MSALErrorKey/stsErrorCodes``.
public let MSALSTSErrorCodesKey = MSALErrorKey.stsErrorCodes
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The userInfo key `MSALInternalErrorCodeKey`: ``MSALErrorKey/internalErrorCode``.
public let MSALInternalErrorCodeKey = MSALErrorKey.internalErrorCode
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The userInfo key `MSALHTTPResponseCodeKey`: ``MSALErrorKey/httpResponseCode``.
public let MSALHTTPResponseCodeKey = MSALErrorKey.httpResponseCode
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The userInfo key `MSALCorrelationIDKey`: ``MSALErrorKey/correlationID``.
public let MSALCorrelationIDKey = MSALErrorKey.correlationID
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The userInfo key `MSALDeclinedScopesKey`: ``MSALErrorKey/declinedScopes``.
public let MSALDeclinedScopesKey = MSALErrorKey.declinedScopes
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The userInfo key `MSALGrantedScopesKey`: ``MSALErrorKey/grantedScopes``.
public let MSALGrantedScopesKey = MSALErrorKey.grantedScopes
