import Foundation

/// MSAL for iOS/macOS's error names, so tutorial code such as
/// `nsError.domain == MSALErrorDomain && nsError.code == MSALError.interactionRequired.rawValue` compiles.
/// As with `URLError.cancelled`, each static member is the ``MSALError/Category`` of that name.
extension MSALError {
    /// ``MSALError/Category/internal``.
    public static var `internal`: Category { .internal }
    /// ``MSALError/Category/workplaceJoinRequired``.
    public static var workplaceJoinRequired: Category { .workplaceJoinRequired }
    /// ``MSALError/Category/interactionRequired``.
    public static var interactionRequired: Category { .interactionRequired }
    /// ``MSALError/Category/serverDeclinedScopes``.
    public static var serverDeclinedScopes: Category { .serverDeclinedScopes }
    /// ``MSALError/Category/serverProtectionPoliciesRequired``.
    public static var serverProtectionPoliciesRequired: Category { .serverProtectionPoliciesRequired }
    /// ``MSALError/Category/userCanceled``.
    public static var userCanceled: Category { .userCanceled }
    /// ``MSALError/Category/serverError``.
    public static var serverError: Category { .serverError }
    /// ``MSALError/Category/insufficientDeviceStrength``.
    public static var insufficientDeviceStrength: Category { .insufficientDeviceStrength }
    /// ``MSALError/Category/mdmEnrollmentCompletedNeedsRetry``.
    public static var mdmEnrollmentCompletedNeedsRetry: Category { .mdmEnrollmentCompletedNeedsRetry }
    /// ``MSALError/Category/serverInvalidRequestResetPasswordRequired``.
    public static var serverInvalidRequestResetPasswordRequired: Category { .serverInvalidRequestResetPasswordRequired }
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
