import Foundation

/// The one error type of the library, shaped like MSAL for iOS/macOS's `NSError`s in `MSALErrorDomain`.
///
/// ``code-swift.property`` says what happened, one case per failure a caller can tell apart
/// (`switch error.code`); the bridged `NSError` has MSAL's `code` (``Code-swift.enum/category``) and MSAL's
/// `MSALInternalErrorCodeKey` (``internalCode``). The OAuth details of a server answer are in the properties and, under MSAL's key names,
/// in `errorUserInfo`; the error the library wrapped is ``underlyingError`` (`NSUnderlyingErrorKey`).
public struct MSALError: Error, CustomNSError, CustomStringConvertible, Sendable {
    /// `MSALErrorDomain`, the domain of the error bridged to `NSError`.
    public static let errorDomain = "MSALErrorDomain"

    /// What happened.
    public let code: Code
    /// MSAL's internal reason: the code's own for a code that is one (`timedOut`), else the finer reason of a
    /// public category when there is one (`interactionRequired` after `invalid_grant`, `serverError` when
    /// throttled).
    public let internalCode: InternalCode?
    /// A description for developers (not for end users).
    public let message: String
    /// The OAuth `error` of the server's answer, e.g. `invalid_grant`.
    public let oauthError: String?
    /// The OAuth `suberror` of the server's answer, e.g. `consent_required`.
    public let oauthSubError: String?
    /// The `AADSTS` error codes of the server's answer.
    public let stsErrorCodes: [Int]
    /// The HTTP status of the server's answer.
    public let httpStatus: Int?
    /// The correlation id of the request that failed.
    public let correlationID: UUID?
    /// The scopes the server granted, when it declined some (``Code-swift.enum/serverDeclinedScopes``).
    public let grantedScopes: [String]?
    /// The scopes the server declined (``Code-swift.enum/serverDeclinedScopes``).
    public let declinedScopes: [String]?
    /// `Retry-After`, in seconds, of a throttled answer.
    public let retryAfter: TimeInterval?
    /// A claims challenge to send with the next interactive sign-in (JSON, decoded from base64).
    public let claimsChallenge: String?
    /// The error this one reports, when the library wrapped another: the transport's (async-http-client's,
    /// NIO's, NIOSSL's), the file system's, the database client's, a decoder's.
    public let underlyingError: (any Error & Sendable)?
    /// Why the request got no answer, when the transport can tell (``Code-swift.enum/transportFailed``): the
    /// connection refused, the host not found, the certificate not trusted, the connection closed.
    public let transportFailure: TransportFailure?

    /// An error with a code, a message and what else is known.
    ///
    /// - Parameters:
    ///   - code: what happened.
    ///   - internalCode: the finer reason of one of MSAL's public categories (`interactionRequired` with
    ///     `invalidGrant`); a code that is an internal reason is its own, and this is then `nil` or the same.
    ///   - message: a description for developers.
    ///   - oauthError: the OAuth `error` of the server's answer.
    ///   - oauthSubError: the OAuth `suberror` of the server's answer.
    ///   - stsErrorCodes: the `AADSTS` error codes of the server's answer.
    ///   - httpStatus: the HTTP status of the server's answer.
    ///   - correlationID: the correlation id of the request that failed.
    ///   - grantedScopes: the scopes the server granted, when it declined some.
    ///   - declinedScopes: the scopes the server declined.
    ///   - retryAfter: `Retry-After`, in seconds, of a throttled answer.
    ///   - claimsChallenge: a claims challenge to send with the next interactive sign-in.
    ///   - underlyingError: the error this one reports, when there is one.
    ///   - transportFailure: why the request got no answer, when the transport can tell.
    public init(
        _ code: Code, internalCode: InternalCode? = nil, _ message: String, oauthError: String? = nil,
        oauthSubError: String? = nil, stsErrorCodes: [Int] = [], httpStatus: Int? = nil, correlationID: UUID? = nil,
        grantedScopes: [String]? = nil, declinedScopes: [String]? = nil, retryAfter: TimeInterval? = nil,
        claimsChallenge: String? = nil, underlyingError: (any Error & Sendable)? = nil,
        transportFailure: TransportFailure? = nil
    ) {
        assert(
            code.internalCode == nil || internalCode == nil || internalCode == code.internalCode,
            "\(code) is its own internal code")
        self.code = code
        self.internalCode = code.internalCode ?? internalCode
        self.message = message
        self.oauthError = oauthError
        self.oauthSubError = oauthSubError
        self.stsErrorCodes = stsErrorCodes
        self.httpStatus = httpStatus
        self.correlationID = correlationID
        self.grantedScopes = grantedScopes
        self.declinedScopes = declinedScopes
        self.retryAfter = retryAfter
        self.claimsChallenge = claimsChallenge
        self.underlyingError = underlyingError
        self.transportFailure = transportFailure
    }

    /// An error whose code is one of MSAL's internal reasons (MSAL's `internal` category).
    public static func `internal`(
        _ reason: InternalCode, _ message: String, underlyingError: (any Error & Sendable)? = nil,
        transportFailure: TransportFailure? = nil
    ) -> MSALError {
        MSALError(Code(reason), message, underlyingError: underlyingError, transportFailure: transportFailure)
    }

    /// This error with the given fields replaced and the others kept. A new internal reason replaces a code that
    /// is one and becomes the finer reason of a public category, as MSAL's `MSALInternalErrorCodeKey` does.
    func with(
        internalCode reason: InternalCode? = nil, message: String? = nil, httpStatus: Int? = nil,
        correlationID: UUID? = nil, retryAfter: TimeInterval? = nil, claimsChallenge: String? = nil
    ) -> MSALError {
        let code = code.internalCode == nil ? code : reason.map(Code.init) ?? code
        return MSALError(
            code, internalCode: code.internalCode == nil ? reason ?? internalCode : nil, message ?? self.message,
            oauthError: oauthError, oauthSubError: oauthSubError, stsErrorCodes: stsErrorCodes,
            httpStatus: httpStatus ?? self.httpStatus, correlationID: correlationID ?? self.correlationID,
            grantedScopes: grantedScopes, declinedScopes: declinedScopes, retryAfter: retryAfter ?? self.retryAfter,
            claimsChallenge: claimsChallenge ?? self.claimsChallenge, underlyingError: underlyingError,
            transportFailure: transportFailure)
    }

    /// MSAL's raw value of the code's category, the bridged `NSError`'s `code`.
    public var errorCode: Int { code.category.rawValue }

    /// The bridged `NSError`'s `userInfo`, under MSAL's keys (``MSALErrorKey``) and `NSUnderlyingErrorKey`.
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
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError }
        return info
    }

    /// MSAL's category and its raw value, the internal reason, the OAuth error and `AADSTS` codes (unless the message
    /// starts with one, as Entra's do), and the message.
    public var description: String {
        var parts = ["MSALError \(code.category) (\(errorCode))"]
        if let internalCode { parts.append("\(internalCode)") }
        if let oauthError { parts.append(oauthError + (oauthSubError.map { "/\($0)" } ?? "")) }
        if !stsErrorCodes.isEmpty, !stsErrorCodes.contains(where: { message.hasPrefix("AADSTS\($0)") }) {
            parts.append("AADSTS" + stsErrorCodes.map(String.init).joined(separator: ","))
        }
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
