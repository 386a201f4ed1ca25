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
