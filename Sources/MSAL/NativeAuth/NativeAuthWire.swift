import Foundation

/// The native-auth REST endpoints (v1), relative to the authority URL.
enum NativeAuthEndpoint: String, Sendable {
    case initiate = "oauth2/v2.0/initiate"
    case challenge = "oauth2/v2.0/challenge"
    case token = "oauth2/v2.0/token"
    case signUpStart = "signup/v1.0/start"
    case signUpChallenge = "signup/v1.0/challenge"
    case signUpContinue = "signup/v1.0/continue"
    case resetStart = "resetpassword/v1.0/start"
    case resetChallenge = "resetpassword/v1.0/challenge"
    case resetContinue = "resetpassword/v1.0/continue"
    case resetSubmit = "resetpassword/v1.0/submit"
    case resetPoll = "resetpassword/v1.0/poll_completion"
}

/// A native-auth answer: the success fields, or the error body an SDK acts on.
struct NativeAuthAnswer: Sendable {
    /// A 4xx error body with native auth's extra members.
    struct Failure: Sendable {
        let oauth: OAuthErrorResponse
        let continuationToken: String?
        let requiredAttributes: [RequiredAttribute]
        let invalidAttributes: [String]

        var error: String { oauth.error }
        var subError: String? { oauth.subError }
        var firstCode: Int? { oauth.errorCodes.first }
    }

    let continuationToken: String?
    let challengeType: String?
    let redirectReason: String?
    let challengeTargetLabel: String?
    let challengeChannel: String?
    let codeLength: Int?
    let pollInterval: Int?
    let status: String?
    let failure: Failure?
    /// The raw body, for the token endpoint's success.
    let body: Data

    /// - Throws: ``MSALError`` `invalidResponse` when a 200 body is not a JSON object.
    init(_ response: HTTPResponse) throws {
        body = response.body
        guard let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] else {
            throw MSALError.internal(
                .invalidResponse, "The native-auth endpoint answered with a body that is not JSON.")
        }
        func int(_ key: String) -> Int? {
            (object[key] as? NSNumber)?.intValue ?? (object[key] as? String).flatMap { Int($0) }
        }
        continuationToken = object["continuation_token"] as? String
        challengeType = object["challenge_type"] as? String
        redirectReason = object["redirect_reason"] as? String
        challengeTargetLabel = object["challenge_target_label"] as? String
        challengeChannel = object["challenge_channel"] as? String
        codeLength = int("code_length")
        pollInterval = int("poll_interval")
        status = object["status"] as? String
        if response.status != 200, let oauth = OAuthErrorResponse(json: response.body) {
            failure = Failure(
                oauth: oauth, continuationToken: continuationToken,
                requiredAttributes: (object["required_attributes"] as? [[String: Any]] ?? []).compactMap(
                    RequiredAttribute.init(json:)),
                invalidAttributes: (object["invalid_attributes"] as? [[String: Any]] ?? []).compactMap {
                    $0["name"] as? String
                })
        } else {
            failure = nil
        }
    }

    var isRedirect: Bool { challengeType?.lowercased() == "redirect" }

    /// Why the browser is needed, for ``SignInResult/browserRequired(reason:)`` and its kin.
    var redirectMessage: String { redirectReason ?? "The identity platform asks for the browser." }

    /// Where a code went, from a challenge answer.
    var delivery: CodeDelivery {
        CodeDelivery(
            sentTo: challengeTargetLabel ?? "", channel: challengeChannel ?? "email", codeLength: codeLength ?? 8)
    }

    /// The continuation token, which a success answer must carry.
    func requireContinuationToken() throws -> String {
        guard let continuationToken, !continuationToken.isEmpty else {
            throw MSALError.internal(.invalidResponse, "The native-auth answer has no continuation_token.")
        }
        return continuationToken
    }
}

/// Where a one-time code was sent.
public struct CodeDelivery: Sendable, Equatable {
    /// The masked address, e.g. `j***@e******.com`.
    public let sentTo: String
    /// `email` or `sms`.
    public let channel: String
    /// How many digits the code has.
    public let codeLength: Int
}

/// A user attribute sign-up needs (`required_attributes`).
public struct RequiredAttribute: Sendable, Equatable {
    /// The attribute's name, e.g. `displayName` or `city`.
    public let name: String
    /// `string`, `boolean` or `number`.
    public let type: String
    /// Whether sign-up cannot finish without it.
    public let required: Bool
    /// A regular expression the value must match, when the tenant set one.
    public let regex: String?

    init?(json: [String: Any]) {
        guard let name = json["name"] as? String else { return nil }
        self.name = name
        type = json["type"] as? String ?? "string"
        required = json["required"] as? Bool ?? false
        regex = (json["options"] as? [String: Any])?["regex"] as? String
    }
}

/// Why the identity platform refused a new password (the native-auth password suberrors).
public enum PasswordProblem: String, Sendable {
    /// The password is too weak.
    case tooWeak = "password_too_weak"
    /// The password is too short.
    case tooShort = "password_too_short"
    /// The password is too long.
    case tooLong = "password_too_long"
    /// The user used the password recently.
    case recentlyUsed = "password_recently_used"
    /// The password is on the banned list.
    case banned = "password_banned"
    /// The password is not valid for another reason (e.g. a character it may not contain).
    case invalid = "password_is_invalid"
}
