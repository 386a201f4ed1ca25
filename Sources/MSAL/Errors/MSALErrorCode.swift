import Foundation

extension MSALError {
    /// What happened, one case per failure a caller can tell apart: MSAL's public categories and the reasons
    /// MSAL reports under its `internal` category. Bridged to `NSError`, each has MSAL's `code` (``category``)
    /// and, for a reason, MSAL's `MSALInternalErrorCodeKey` (``internalCode``).
    public enum Code: Sendable, Hashable, CaseIterable {
        /// The device must be registered (workplace-joined); not reported on Linux.
        case workplaceJoinRequired
        /// Only an interactive sign-in can continue: no refresh token, or the server asks for the user
        /// (`interaction_required`, `login_required`, `consent_required`); ``MSALError/internalCode`` may say more.
        case interactionRequired
        /// The server granted fewer scopes than requested (see ``MSALError/declinedScopes``).
        case serverDeclinedScopes
        /// The resource requires an app-protection policy (`protection_policy_required`).
        case serverProtectionPoliciesRequired
        /// The user cancelled or declined the sign-in (`access_denied`).
        case userCanceled
        /// The identity platform failed, throttled the request or is unavailable; ``MSALError/internalCode``
        /// may say more (`throttled`, `unhandledResponse`, `timedOut`).
        case serverError
        /// The device does not meet the strength requirement; not reported on Linux.
        case insufficientDeviceStrength
        /// Device-management enrollment finished and the request should be retried; not reported on Linux.
        case mdmEnrollmentCompletedNeedsRetry
        /// The user must reset their password; not reported on Linux.
        case serverInvalidRequestResetPasswordRequired
        /// A parameter the app passed is not valid (an empty client id or username, a malformed authority).
        case invalidParameter
        /// The server answered `invalid_request`.
        case invalidRequest
        /// The server answered `invalid_client`.
        case invalidClient
        /// The server answered `invalid_grant`.
        case invalidGrant
        /// The server answered `invalid_scope`.
        case invalidScope
        /// The server answered `unauthorized_client`.
        case unauthorizedClient
        /// The server failed (HTTP 5xx) or answered in a way the flow cannot continue from.
        case unhandledResponse
        /// Something the library did not expect happened.
        case unexpected
        /// The server answered with an HTTP status and a body that is not an OAuth error.
        case unexpectedHTTPResponse
        /// The authority's OpenID configuration or instance discovery failed, or names an issuer that does not
        /// belong to it.
        case failedAuthorityValidation
        /// The redirect URI is not a loopback `http` URI, which an interactive sign-in on Linux needs.
        case invalidRedirectURI
        /// The user who signed in is not the one the request was for (MSAL's code; not reported here).
        case mismatchedUser
        /// Several accounts are cached and the call needs one.
        case ambiguousAccount
        /// The server answered with an OAuth error that has no more specific code.
        case authorizationFailed
        /// A silent request named no account (MSAL reports it as `interactionRequired` with this reason).
        case accountRequired
        /// The sign-in session was cancelled (MSAL's code; not reported here).
        case sessionCanceled
        /// The redirect's `state` does not match the request's.
        case invalidState
        /// A server answer lacks what the protocol requires.
        case invalidResponse
        /// A redirect to a non-https URL (MSAL's code; not reported here).
        case nonHTTPSRedirect
        /// The ID token is malformed or fails validation (signature, issuer, audience, nonce, lifetime).
        case invalidIDToken
        /// A request, an interactive sign-in, a device code or a password reset ran out of time.
        case timedOut
        /// The request did not reach the server or its answer did not arrive, or the redirect listener could not
        /// start; ``MSALError/underlyingError`` is the transport's error when there is one.
        case transportFailed
        /// The identity platform is throttling requests (HTTP 429); see ``MSALError/retryAfter``.
        case throttled
        /// The token cache's bytes are not a token cache.
        case cacheCorrupted
        /// The token cache cannot be read or written (permissions, a read-only file or folder, the keyring or
        /// the database unavailable).
        case cacheUnavailable
        /// Another process held the cache's lock for longer than the wait allows.
        case cacheLocked
        /// Another process saved the partition first; the change is applied again to its version.
        case cacheConflict

        /// The code of one of MSAL's internal reasons.
        public init(_ reason: InternalCode) {
            switch reason {
            case .invalidParameter: self = .invalidParameter
            case .invalidRequest: self = .invalidRequest
            case .invalidClient: self = .invalidClient
            case .invalidGrant: self = .invalidGrant
            case .invalidScope: self = .invalidScope
            case .unauthorizedClient: self = .unauthorizedClient
            case .unhandledResponse: self = .unhandledResponse
            case .unexpected: self = .unexpected
            case .unexpectedHTTPResponse: self = .unexpectedHTTPResponse
            case .failedAuthorityValidation: self = .failedAuthorityValidation
            case .invalidRedirectURI: self = .invalidRedirectURI
            case .mismatchedUser: self = .mismatchedUser
            case .ambiguousAccount: self = .ambiguousAccount
            case .authorizationFailed: self = .authorizationFailed
            case .accountRequired: self = .accountRequired
            case .sessionCanceled: self = .sessionCanceled
            case .invalidState: self = .invalidState
            case .invalidResponse: self = .invalidResponse
            case .nonHTTPSRedirect: self = .nonHTTPSRedirect
            case .invalidIDToken: self = .invalidIDToken
            case .timedOut: self = .timedOut
            case .transportFailed: self = .transportFailed
            case .throttled: self = .throttled
            case .cacheCorrupted: self = .cacheCorrupted
            case .cacheUnavailable: self = .cacheUnavailable
            case .cacheLocked: self = .cacheLocked
            case .cacheConflict: self = .cacheConflict
            }
        }

        /// MSAL's internal reason this code is, or `nil` for one of MSAL's public categories.
        public var internalCode: InternalCode? {
            switch self {
            case .workplaceJoinRequired, .interactionRequired, .serverDeclinedScopes, .serverProtectionPoliciesRequired,
                .userCanceled, .serverError, .insufficientDeviceStrength, .mdmEnrollmentCompletedNeedsRetry,
                .serverInvalidRequestResetPasswordRequired:
                nil
            case .invalidParameter: .invalidParameter
            case .invalidRequest: .invalidRequest
            case .invalidClient: .invalidClient
            case .invalidGrant: .invalidGrant
            case .invalidScope: .invalidScope
            case .unauthorizedClient: .unauthorizedClient
            case .unhandledResponse: .unhandledResponse
            case .unexpected: .unexpected
            case .unexpectedHTTPResponse: .unexpectedHTTPResponse
            case .failedAuthorityValidation: .failedAuthorityValidation
            case .invalidRedirectURI: .invalidRedirectURI
            case .mismatchedUser: .mismatchedUser
            case .ambiguousAccount: .ambiguousAccount
            case .authorizationFailed: .authorizationFailed
            case .accountRequired: .accountRequired
            case .sessionCanceled: .sessionCanceled
            case .invalidState: .invalidState
            case .invalidResponse: .invalidResponse
            case .nonHTTPSRedirect: .nonHTTPSRedirect
            case .invalidIDToken: .invalidIDToken
            case .timedOut: .timedOut
            case .transportFailed: .transportFailed
            case .throttled: .throttled
            case .cacheCorrupted: .cacheCorrupted
            case .cacheUnavailable: .cacheUnavailable
            case .cacheLocked: .cacheLocked
            case .cacheConflict: .cacheConflict
            }
        }

        /// MSAL's public category: the code's own for a category, `internal` for a reason.
        public var category: Category {
            switch self {
            case .workplaceJoinRequired: .workplaceJoinRequired
            case .interactionRequired: .interactionRequired
            case .serverDeclinedScopes: .serverDeclinedScopes
            case .serverProtectionPoliciesRequired: .serverProtectionPoliciesRequired
            case .userCanceled: .userCanceled
            case .serverError: .serverError
            case .insufficientDeviceStrength: .insufficientDeviceStrength
            case .mdmEnrollmentCompletedNeedsRetry: .mdmEnrollmentCompletedNeedsRetry
            case .serverInvalidRequestResetPasswordRequired: .serverInvalidRequestResetPasswordRequired
            default: .internal
            }
        }
    }
}
