import Foundation

/// The base of native auth's error classes (MSAL's `MSALNativeAuthError`): a description, the
/// correlation id and the server's AADSTS codes.
///
/// `@unchecked Sendable` invariant: every stored property is a `let` of a Sendable type, here and in subclasses.
public class MSALNativeAuthError: Error, LocalizedError, @unchecked Sendable {
    private let message: String?
    public let correlationId: UUID
    public let errorCodes: [Int]
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
    public enum ErrorType: Sendable {
        case browserRequired, userNotFound, invalidCredentials, invalidUsername, generalError
    }
    public let type: ErrorType

    init(type: ErrorType, _ underlying: (any Error)? = nil, message: String? = nil) {
        self.type = type
        let d = Self.details(underlying)
        super.init(
            message: message ?? d.message ?? Self.defaultText(type), correlationId: d.correlationID, errorCodes: d.codes
        )
    }

    public var isBrowserRequired: Bool { type == .browserRequired }
    public var isUserNotFound: Bool { type == .userNotFound }
    public var isInvalidCredentials: Bool { type == .invalidCredentials }
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
    public enum ErrorType: Sendable {
        case browserRequired, userAlreadyExists, invalidPassword, invalidUsername, generalError
    }
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

    public var isBrowserRequired: Bool { type == .browserRequired }
    public var isUserAlreadyExists: Bool { type == .userAlreadyExists }
    public var isInvalidPassword: Bool { type == .invalidPassword }
    public var isInvalidUsername: Bool { type == .invalidUsername }
}

/// A failed password-reset start.
public final class ResetPasswordStartError: MSALNativeAuthError, @unchecked Sendable {
    public enum ErrorType: Sendable {
        case browserRequired, userDoesNotHavePassword, userNotFound, invalidUsername, generalError
    }
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

    public var isBrowserRequired: Bool { type == .browserRequired }
    public var isUserDoesNotHavePassword: Bool { type == .userDoesNotHavePassword }
    public var isUserNotFound: Bool { type == .userNotFound }
    public var isInvalidUsername: Bool { type == .invalidUsername }
}

/// A failed `getAccessToken`.
public final class RetrieveAccessTokenError: MSALNativeAuthError, @unchecked Sendable {
    public enum ErrorType: Sendable { case browserRequired, refreshTokenExpired, invalidScope, generalError }
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

    public var isBrowserRequired: Bool { type == .browserRequired }
    public var isRefreshTokenExpired: Bool { type == .refreshTokenExpired }
    public var isInvalidScope: Bool { type == .invalidScope }
}

/// A failed code submission.
public final class VerifyCodeError: MSALNativeAuthError, @unchecked Sendable {
    public enum ErrorType: Sendable { case browserRequired, invalidCode, generalError }
    public let type: ErrorType

    init(type: ErrorType, _ underlying: (any Error)? = nil) {
        self.type = type
        let d = Self.details(underlying)
        super.init(
            message: d.message ?? (type == .invalidCode ? "Invalid code" : "General error"),
            correlationId: d.correlationID, errorCodes: d.codes)
    }

    public var isBrowserRequired: Bool { type == .browserRequired }
    public var isInvalidCode: Bool { type == .invalidCode }
}

/// A failed password submission.
public final class PasswordRequiredError: MSALNativeAuthError, @unchecked Sendable {
    public enum ErrorType: Sendable { case browserRequired, invalidPassword, generalError }
    public let type: ErrorType

    init(type: ErrorType, _ underlying: (any Error)? = nil, message: String? = nil) {
        self.type = type
        let d = Self.details(underlying)
        super.init(
            message: message ?? d.message ?? (type == .invalidPassword ? "Invalid password" : "General error"),
            correlationId: d.correlationID, errorCodes: d.codes)
    }

    public var isBrowserRequired: Bool { type == .browserRequired }
    public var isInvalidPassword: Bool { type == .invalidPassword }
}

/// Errors that only say whether the browser is needed (`MSALNativeAuthGenericError`'s kin).
public class MSALNativeAuthGenericError: MSALNativeAuthError, @unchecked Sendable {
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
