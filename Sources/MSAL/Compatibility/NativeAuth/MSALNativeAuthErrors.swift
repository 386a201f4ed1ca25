import Foundation

/// The base of native auth's error classes (MSAL's `MSALNativeAuthError`): a description, the
/// correlation id and the server's AADSTS codes.
///
/// `@unchecked Sendable` invariant: every stored property is a `let` of a Sendable type, here and in subclasses.
public class MSALNativeAuthError: Error, LocalizedError, @unchecked Sendable {
    private let message: String?
    /// The correlation id of the request that failed (a new one when the failure has none).
    public let correlationId: UUID
    /// The server's `AADSTS` error codes.
    public let errorCodes: [Int]
    /// A page about the error; always `nil` here, kept for MSAL's API.
    public let errorUri: String?

    init(message: String?, correlationId: UUID?, errorCodes: [Int], errorUri: String? = nil) {
        self.message = message
        self.correlationId = correlationId ?? UUID()
        self.errorCodes = errorCodes
        self.errorUri = errorUri
    }

    /// The server's description when there is one, else the type's default text.
    public var errorDescription: String? { message }

    /// The description, correlation id and codes of a library error, if `error` is one.
    static func details(_ error: (any Error)?) -> (message: String?, correlationID: UUID?, codes: [Int]) {
        guard let error = error as? MSALError else { return (error.map { "\($0)" }, nil, []) }
        return (error.message, error.correlationID, error.stsErrorCodes)
    }
}

/// A failed sign-in start.
public final class SignInStartError: MSALNativeAuthError, @unchecked Sendable {
    /// Why the sign-in start failed.
    public enum ErrorType: Sendable {
        /// The flow needs a browser: sign in with the web flow (``MSALPublicClientApplication/acquireToken(with:completionBlock:)``).
        case browserRequired
        /// No user has this username.
        case userNotFound
        /// The username or password is wrong.
        case invalidCredentials
        /// The username is not valid (e.g. not an email address).
        case invalidUsername
        /// Any other failure; the description says more.
        case generalError
    }
    /// Why the sign-in start failed.
    public let type: ErrorType

    init(type: ErrorType, _ underlying: (any Error)? = nil, message: String? = nil) {
        self.type = type
        let d = Self.details(underlying)
        super.init(
            message: message ?? d.message ?? Self.defaultText(type), correlationId: d.correlationID, errorCodes: d.codes
        )
    }

    /// Whether the flow needs a browser: sign in with the web flow instead.
    public var isBrowserRequired: Bool { type == .browserRequired }
    /// Whether no user has this username.
    public var isUserNotFound: Bool { type == .userNotFound }
    /// Whether the username or password is wrong.
    public var isInvalidCredentials: Bool { type == .invalidCredentials }
    /// Whether the username is not valid.
    public var isInvalidUsername: Bool { type == .invalidUsername }

    static func defaultText(_ type: ErrorType) -> String {
        switch type {
        case .browserRequired: "Browser required. Use acquireTokenInteractively instead."
        case .userNotFound: "User does not exist"
        case .invalidCredentials: "Invalid credentials"
        case .invalidUsername: "Invalid username"
        case .generalError: "General error"
        }
    }
}

/// A failed sign-up start.
public final class SignUpStartError: MSALNativeAuthError, @unchecked Sendable {
    /// Why the sign-up start failed.
    public enum ErrorType: Sendable {
        /// The flow needs a browser: sign in with the web flow (``MSALPublicClientApplication/acquireToken(with:completionBlock:)``).
        case browserRequired
        /// A user with this username exists already.
        case userAlreadyExists
        /// The password does not meet the tenant's policy.
        case invalidPassword
        /// The username is not valid (e.g. not an email address).
        case invalidUsername
        /// Any other failure; the description says more.
        case generalError
    }
    /// Why the sign-up start failed.
    public let type: ErrorType

    init(type: ErrorType, _ underlying: (any Error)? = nil, message: String? = nil) {
        self.type = type
        let d = Self.details(underlying)
        let text =
            switch type {
            case .browserRequired: SignInStartError.defaultText(.browserRequired)
            case .userAlreadyExists: "User already exists"
            case .invalidPassword: "Invalid password"
            case .invalidUsername: "Invalid username"
            case .generalError: "General error"
            }
        super.init(message: message ?? d.message ?? text, correlationId: d.correlationID, errorCodes: d.codes)
    }

    /// Whether the flow needs a browser: sign in with the web flow instead.
    public var isBrowserRequired: Bool { type == .browserRequired }
    /// Whether a user with this username exists already.
    public var isUserAlreadyExists: Bool { type == .userAlreadyExists }
    /// Whether the password was refused.
    public var isInvalidPassword: Bool { type == .invalidPassword }
    /// Whether the username is not valid.
    public var isInvalidUsername: Bool { type == .invalidUsername }
}

/// A failed password-reset start.
public final class ResetPasswordStartError: MSALNativeAuthError, @unchecked Sendable {
    /// Why the password-reset start failed.
    public enum ErrorType: Sendable {
        /// The flow needs a browser: sign in with the web flow (``MSALPublicClientApplication/acquireToken(with:completionBlock:)``).
        case browserRequired
        /// The user signs in without a password, so there is none to reset.
        case userDoesNotHavePassword
        /// No user has this username.
        case userNotFound
        /// The username is not valid (e.g. not an email address).
        case invalidUsername
        /// Any other failure; the description says more.
        case generalError
    }
    /// Why the password-reset start failed.
    public let type: ErrorType

    init(type: ErrorType, _ underlying: (any Error)? = nil, message: String? = nil) {
        self.type = type
        let d = Self.details(underlying)
        let text =
            switch type {
            case .browserRequired: SignInStartError.defaultText(.browserRequired)
            case .userDoesNotHavePassword: "User does not have password associated with account"
            case .userNotFound: "User does not exist"
            case .invalidUsername: "Invalid username"
            case .generalError: "General error"
            }
        super.init(message: message ?? d.message ?? text, correlationId: d.correlationID, errorCodes: d.codes)
    }

    /// Whether the flow needs a browser: sign in with the web flow instead.
    public var isBrowserRequired: Bool { type == .browserRequired }
    /// Whether the user has no password to reset.
    public var isUserDoesNotHavePassword: Bool { type == .userDoesNotHavePassword }
    /// Whether no user has this username.
    public var isUserNotFound: Bool { type == .userNotFound }
    /// Whether the username is not valid.
    public var isInvalidUsername: Bool { type == .invalidUsername }
}

/// A failed `getAccessToken`.
public final class RetrieveAccessTokenError: MSALNativeAuthError, @unchecked Sendable {
    /// Why the token request failed.
    public enum ErrorType: Sendable {
        /// The flow needs a browser: sign in with the web flow (``MSALPublicClientApplication/acquireToken(with:completionBlock:)``).
        case browserRequired
        /// The refresh token expired or was revoked: sign in again.
        case refreshTokenExpired
        /// A requested scope is not valid.
        case invalidScope
        /// Any other failure; the description says more.
        case generalError
    }
    /// Why the token request failed.
    public let type: ErrorType

    init(type: ErrorType, _ underlying: (any Error)? = nil) {
        self.type = type
        let d = Self.details(underlying)
        var text = d.message ?? "General error"
        if d.codes.contains(50076) {
            text = "Multi-factor authentication is required, which can't be fulfilled as part of this flow. " + text
        } else if d.codes.contains(50142) {
            text = "User password change is required, which can't be fulfilled as part of this flow. " + text
        }
        super.init(message: text, correlationId: d.correlationID, errorCodes: d.codes)
    }

    /// Whether the flow needs a browser: sign in with the web flow instead.
    public var isBrowserRequired: Bool { type == .browserRequired }
    /// Whether the refresh token expired or was revoked.
    public var isRefreshTokenExpired: Bool { type == .refreshTokenExpired }
    /// Whether a requested scope is not valid.
    public var isInvalidScope: Bool { type == .invalidScope }
}

/// A failed code submission.
public final class VerifyCodeError: MSALNativeAuthError, @unchecked Sendable {
    /// Why the code submission failed.
    public enum ErrorType: Sendable {
        /// The flow needs a browser: sign in with the web flow (``MSALPublicClientApplication/acquireToken(with:completionBlock:)``).
        case browserRequired
        /// The code is wrong or expired.
        case invalidCode
        /// Any other failure; the description says more.
        case generalError
    }
    /// Why the code submission failed.
    public let type: ErrorType

    init(type: ErrorType, _ underlying: (any Error)? = nil) {
        self.type = type
        let d = Self.details(underlying)
        super.init(
            message: d.message ?? (type == .invalidCode ? "Invalid code" : "General error"),
            correlationId: d.correlationID, errorCodes: d.codes)
    }

    /// Whether the flow needs a browser: sign in with the web flow instead.
    public var isBrowserRequired: Bool { type == .browserRequired }
    /// Whether the code is wrong or expired.
    public var isInvalidCode: Bool { type == .invalidCode }
}

/// A failed password submission.
public final class PasswordRequiredError: MSALNativeAuthError, @unchecked Sendable {
    /// Why the password submission failed.
    public enum ErrorType: Sendable {
        /// The flow needs a browser: sign in with the web flow (``MSALPublicClientApplication/acquireToken(with:completionBlock:)``).
        case browserRequired
        /// The password is wrong (sign-in) or does not meet the tenant's policy (sign-up, reset).
        case invalidPassword
        /// Any other failure; the description says more.
        case generalError
    }
    /// Why the password submission failed.
    public let type: ErrorType

    init(type: ErrorType, _ underlying: (any Error)? = nil, message: String? = nil) {
        self.type = type
        let d = Self.details(underlying)
        super.init(
            message: message ?? d.message ?? (type == .invalidPassword ? "Invalid password" : "General error"),
            correlationId: d.correlationID, errorCodes: d.codes)
    }

    /// Whether the flow needs a browser: sign in with the web flow instead.
    public var isBrowserRequired: Bool { type == .browserRequired }
    /// Whether the password was refused.
    public var isInvalidPassword: Bool { type == .invalidPassword }
}

/// Errors that only say whether the browser is needed (`MSALNativeAuthGenericError`'s kin).
public class MSALNativeAuthGenericError: MSALNativeAuthError, @unchecked Sendable {
    /// Whether the flow needs a browser: sign in with the web flow instead.
    public let isBrowserRequired: Bool

    init(_ underlying: (any Error)? = nil, browserRequired: Bool = false, message: String? = nil) {
        isBrowserRequired = browserRequired
        let d = Self.details(underlying)
        super.init(
            message: message ?? d.message
                ?? (browserRequired ? SignInStartError.defaultText(.browserRequired) : "General error"),
            correlationId: d.correlationID, errorCodes: d.codes)
    }
}

/// A failed code resend.
public final class ResendCodeError: MSALNativeAuthGenericError, @unchecked Sendable {}
/// A failed attributes submission.
public final class AttributesRequiredError: MSALNativeAuthGenericError, @unchecked Sendable {}
/// A failed sign-in after sign-up.
public final class SignInAfterSignUpError: MSALNativeAuthGenericError, @unchecked Sendable {}
/// A failed sign-in after a password reset.
public final class SignInAfterResetPasswordError: MSALNativeAuthGenericError, @unchecked Sendable {}

/// A failed request for an MFA code.
public final class MFARequestChallengeError: MSALNativeAuthGenericError, @unchecked Sendable {
    /// Whether the identity platform blocked the method (`provider_blocked_by_rep`).
    public let isAuthMethodBlocked: Bool

    override init(_ underlying: (any Error)? = nil, browserRequired: Bool = false, message: String? = nil) {
        isAuthMethodBlocked = (underlying as? MSALError)?.oauthSubError == "provider_blocked_by_rep"
        super.init(underlying, browserRequired: browserRequired, message: message)
    }
}

/// A failed MFA code submission.
public final class MFASubmitChallengeError: MSALNativeAuthGenericError, @unchecked Sendable {
    /// Whether the code was wrong or has expired.
    public let isInvalidChallenge: Bool

    init(_ underlying: (any Error)? = nil, browserRequired: Bool = false, invalidChallenge: Bool = false) {
        isInvalidChallenge = invalidChallenge
        super.init(underlying, browserRequired: browserRequired, message: invalidChallenge ? "Invalid code" : nil)
    }
}

/// A failed offer of a contact for a new strong authentication method.
public final class RegisterStrongAuthChallengeError: MSALNativeAuthGenericError, @unchecked Sendable {
    /// Whether the contact is not a valid email address or phone number.
    public let isInvalidInput: Bool
    /// Whether the identity platform blocked the contact (`provider_blocked_by_rep`).
    public let isVerificationContactBlocked: Bool

    init(
        _ underlying: (any Error)? = nil, browserRequired: Bool = false, invalidInput: Bool = false,
        message: String? = nil
    ) {
        isInvalidInput = invalidInput
        isVerificationContactBlocked = (underlying as? MSALError)?.oauthSubError == "provider_blocked_by_rep"
        super.init(
            underlying, browserRequired: browserRequired,
            message: message ?? (invalidInput ? "The verification contact is not valid." : nil))
    }
}

/// A failed submission of the code sent to a new contact.
public final class RegisterStrongAuthSubmitChallengeError: MSALNativeAuthGenericError, @unchecked Sendable {
    /// Whether the code was wrong or has expired.
    public let isInvalidChallenge: Bool

    init(_ underlying: (any Error)? = nil, browserRequired: Bool = false, invalidChallenge: Bool = false) {
        isInvalidChallenge = invalidChallenge
        super.init(underlying, browserRequired: browserRequired, message: invalidChallenge ? "Invalid code" : nil)
    }
}
