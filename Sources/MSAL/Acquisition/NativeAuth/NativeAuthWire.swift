import Foundation

/// Where a one-time code was sent.
public struct CodeDelivery: Sendable, Equatable {
    /// The masked address, e.g. `j***@e******.com`.
    public let sentTo: String
    /// `email` or `sms`.
    public let channel: String
    /// How many digits the code has.
    public let codeLength: Int
}

/// A strong authentication method: one the user registered (for MFA), or a kind they may register.
public struct AuthMethod: Sendable, Equatable, Hashable {
    /// The method's id, which the challenge names.
    public let id: String
    /// How it is proven: `oob` (a one-time code).
    public let challengeType: String
    /// Where codes go: `email` or `sms`.
    public let channel: String
    /// The masked contact, e.g. `l***@e******.com` or `+*******0123` (empty for a kind to register).
    public let loginHint: String?

    /// A method, as tests and apps that keep a user's choice make one.
    public init(id: String, challengeType: String = "oob", channel: String, loginHint: String? = nil) {
        self.id = id
        self.challengeType = challengeType
        self.channel = channel
        self.loginHint = loginHint
    }

    init?(json: [String: Any]) {
        guard let id = json["id"] as? String, !id.isEmpty else { return nil }
        self.init(
            id: id, challengeType: json["challenge_type"] as? String ?? "oob",
            channel: json["challenge_channel"] as? String ?? "email",
            loginHint: (json["login_hint"] as? String).flatMap { $0.isEmpty ? nil : $0 })
    }
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

    /// An attribute, as a form that asks for one describes it.
    public init(name: String, type: String = "string", required: Bool = true, regex: String? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.regex = regex
    }

    init?(json: [String: Any]) {
        guard let name = json["name"] as? String else { return nil }
        self.init(
            name: name, type: json["type"] as? String ?? "string", required: json["required"] as? Bool ?? false,
            regex: (json["options"] as? [String: Any])?["regex"] as? String)
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
