import Foundation

extension MSALError {
    /// MSAL for iOS/macOS's public error codes (`MSALError.h`): the bridged `NSError`'s `code`
    /// (``MSALError/errorCode``). Each ``Code-swift.enum`` has one (``Code-swift.enum/category``).
    public enum Category: Int, Sendable, CaseIterable {
        /// Most failures; `MSALInternalErrorCodeKey` says why.
        case `internal` = -50000
        /// The device must be registered (workplace-joined); not reported on Linux.
        case workplaceJoinRequired = -50001
        /// Only an interactive sign-in can continue.
        case interactionRequired = -50002
        /// The server granted fewer scopes than requested.
        case serverDeclinedScopes = -50003
        /// The resource requires an app-protection policy.
        case serverProtectionPoliciesRequired = -50004
        /// The user cancelled or declined the sign-in.
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

    /// MSAL for iOS/macOS's finer reasons (`MSALInternalError`), reported under `MSALInternalErrorCodeKey`
    /// (``MSALError/internalCode``).
    public enum InternalCode: Int, Sendable, CaseIterable {
        /// A parameter the app passed is not valid.
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
        /// The server failed or answered in a way the flow cannot continue from.
        case unhandledResponse = -42007
        /// Something the library did not expect happened.
        case unexpected = -42008
        /// The server answered with an HTTP status and a body that is not an OAuth error.
        case unexpectedHTTPResponse = -42009
        /// The authority's configuration or instance discovery failed.
        case failedAuthorityValidation = -42010
        /// The redirect URI is not one an interactive sign-in on Linux can use.
        case invalidRedirectURI = -42011
        /// The user who signed in is not the one the request was for.
        case mismatchedUser = -42101
        /// Several accounts are cached and the call needs one.
        case ambiguousAccount = -42102
        /// The server answered with an OAuth error that has no more specific code.
        case authorizationFailed = -42104
        /// A silent request named no account, or one not in the cache.
        case accountRequired = -42106
        /// The sign-in session was cancelled.
        case sessionCanceled = -42401
        /// The redirect's `state` does not match the request's.
        case invalidState = -42501
        /// A server answer lacks what the protocol requires.
        case invalidResponse = -42600
        /// A redirect to a non-https URL.
        case nonHTTPSRedirect = -42602
        /// The ID token is malformed or fails validation.
        case invalidIDToken = -42603
        /// Something ran out of time.
        case timedOut = -42604
        /// The request did not reach the server or its answer did not arrive.
        case transportFailed = -42605
        /// The identity platform is throttling requests.
        case throttled = -42606
        /// The token cache's bytes are not a token cache.
        case cacheCorrupted = -42607
        /// The token cache cannot be read or written.
        case cacheUnavailable = -42608
        /// Another process held the cache's lock for longer than the wait allows.
        case cacheLocked = -42609
        /// Another process saved the partition first.
        case cacheConflict = -42610
    }
}
