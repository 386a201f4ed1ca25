import Foundation

/// The errors of the native-auth endpoints, with the `error`, suberror and AADSTS codes the SDKs inspect.
extension EntraError {
    static let invalidContinuationToken = EntraError(
        error: "invalid_request", code: 55000,
        message:
            "The continuation token is invalid or was already used.")

    static let expiredContinuationToken = EntraError(
        error: "expired_token", code: 552003,
        message:
            "The continuation token is expired.")

    static let unsupportedChallengeType = EntraError(
        error: "unsupported_challenge_type", code: 550022,
        message:
            "The challenge_type parameter must include 'redirect'; the supported values are oob, password and redirect."
    )

    static let invalidUsername = EntraError(
        error: "invalid_request", code: 90100,
        message:
            "username parameter is empty or not valid.")

    static let nativeAuthNotEnabled = EntraError(
        error: "unauthorized_client", code: 500207,
        message:
            "The application is not configured for native authentication, or the tenant is not an External ID tenant.")

    static let nativeUserNotFound = EntraError(
        error: "user_not_found", code: 50034,
        message:
            "The user account {EmailHidden} does not exist in the directory.")

    static let userAlreadyExists = EntraError(
        error: "user_already_exists", code: 1_003_037,
        message:
            "It looks like you may already have an account. Please sign in instead.")

    static let userHasNoPassword = EntraError(
        error: "invalid_request", code: 500222,
        message:
            "The user account does not have a password; password reset is not available. Sign in with a one-time code.")

    static let invalidCode = EntraError(
        error: "invalid_grant", code: 50181,
        message:
            "The one-time code is incorrect.", suberror: "invalid_oob_value")

    static let tooManyWrongCodes = EntraError(
        error: "invalid_grant", code: 50181,
        message:
            "Too many incorrect one-time codes. Request a new code.", suberror: "invalid_oob_value")

    static let expiredCode = EntraError(
        error: "invalid_grant", code: 50181,
        message:
            "The one-time code has expired. Request a new one.", suberror: "invalid_oob_value")

    /// A password the tenant's policy refuses; `suberror` is `password_too_weak`, `password_too_short`…
    static func refusedPassword(_ suberror: String) -> EntraError {
        let reason =
            switch suberror {
            case "password_too_short": "The password is too short."
            case "password_too_long": "The password is too long."
            case "password_banned": "The password is on the list of banned passwords."
            case "password_recently_used": "The password was used recently; choose a different one."
            case "password_is_invalid": "The password contains characters or text that are not allowed."
            default: "The password is too weak; use at least three of lower case, upper case, digits and symbols."
            }
        return EntraError(
            error: "invalid_grant", code: 399246, message: "New password is invalid. \(reason)", suberror: suberror)
    }

    static func credentialRequired(continuationToken: String) -> EntraError {
        EntraError(
            error: "credential_required", code: 55103, message: "The password is required to continue sign-up.",
            details: .object([("continuation_token", .string(continuationToken))]))
    }

    static func attributesRequired(_ attributes: [SignUpAttribute], continuationToken: String) -> EntraError {
        let list = attributes.map { attribute -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("name", .string(attribute.name)), ("type", .string(attribute.type)),
                ("required", .bool(attribute.required)),
            ]
            if let regex = attribute.regex { members.append(("options", .object([("regex", .string(regex))]))) }
            return .object(members)
        }
        return EntraError(
            error: "attributes_required", code: 55106, message: "User attributes are required.",
            details: .object([
                ("continuation_token", .string(continuationToken)), ("required_attributes", .array(list)),
            ]))
    }

    static func attributeValidationFailed(_ names: [String], continuationToken: String?) -> EntraError {
        var details: [(String, JSONValue)] = [
            ("invalid_attributes", .array(names.map { .object([("name", .string($0))]) }))
        ]
        if let continuationToken { details.insert(("continuation_token", .string(continuationToken)), at: 0) }
        return EntraError(
            error: "invalid_grant", code: 55107,
            message:
                "User attribute validation failed: \(names.joined(separator: ", ")).",
            suberror: "attribute_validation_failed", details: .object(details))
    }

    /// The first factor passed; the user must pass MFA on a registered method. The continuation token is good
    /// at `/oauth2/v2.0/introspect` and `/oauth2/v2.0/challenge` only.
    static func mfaRequired(continuationToken: String) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 50076,
            message:
                "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access the resource.",
            suberror: "mfa_required", details: .object([("continuation_token", .string(continuationToken))]))
    }

    /// The first factor passed; the user must pass MFA but has no method, so registers one just in time
    /// (`/register/v1.0/…`) with the continuation token.
    static func registrationRequired(continuationToken: String, resource: String) -> EntraError {
        EntraError(
            error: "invalid_grant", code: 50079,
            message:
                "Due to a configuration change made by your administrator, or because you moved to a new location, you must enroll in multi-factor authentication to access '\(resource)'.",
            suberror: "registration_required", details: .object([("continuation_token", .string(continuationToken))]))
    }

    /// `/oauth2/v2.0/challenge`: the `id` names none of the user's strong-authentication methods.
    static let unknownAuthMethod = EntraError(
        error: "invalid_request", code: 901007,
        message:
            "The id parameter is not valid.")

    /// `/register/v1.0/challenge`: the email address or phone number to register is not valid.
    static let invalidVerificationContact = EntraError(
        error: "invalid_request", code: 901001,
        message:
            "The verification contact is not valid.")

    /// `/register/v1.0/challenge`: only `oob` codes by `email` or `sms` can be registered.
    static let unsupportedRegistrationChallenge = EntraError(
        error: "unsupported_challenge_type", code: 550022,
        message:
            "The challenge_type must be oob and the challenge_channel email or sms.")
}
