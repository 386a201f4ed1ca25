import Foundation

/// How an External ID tenant runs native authentication: what sign-up asks for, which passwords
/// it accepts and whether customers need a second factor. The emulator uses ``NativeAuthSettings/standard``
/// for External ID tenants without one.
public struct NativeAuthSettings: Codable, Sendable {
    /// How new customers prove who they are.
    public enum SignUpMethod: String, Codable, Sendable {
        /// An email code, then a password (the tenant's "Email with password").
        case emailPassword
        /// An email code only ("Email one-time passcode").
        case emailCode
    }

    public var signUpMethod: SignUpMethod
    /// The user attributes sign-up collects (user flow "attributes").
    public var signUpAttributes: [SignUpAttribute]
    public var passwordPolicy: PasswordPolicy
    /// How long a one-time code is valid, in seconds.
    public var codeLifetime: Int
    /// How long a continuation token is valid, in seconds.
    public var continuationTokenLifetime: Int
    /// The tenant's MFA policy (a conditional-access policy requiring MFA for every customer): after the
    /// password or email code, customers pass a second factor on a registered method, or register one.
    /// ``User/mfaRequired`` overrides it per customer. `false` when absent.
    public var mfaRequired: Bool

    public init(
        signUpMethod: SignUpMethod = .emailPassword, signUpAttributes: [SignUpAttribute] = [],
        passwordPolicy: PasswordPolicy = PasswordPolicy(), codeLifetime: Int = 600,
        continuationTokenLifetime: Int = 900, mfaRequired: Bool = false
    ) {
        self.signUpMethod = signUpMethod
        self.signUpAttributes = signUpAttributes
        self.passwordPolicy = passwordPolicy
        self.codeLifetime = codeLifetime
        self.continuationTokenLifetime = continuationTokenLifetime
        self.mfaRequired = mfaRequired
    }

    /// Email and password, a required display name and a required two-letter country code.
    public static let standard = NativeAuthSettings(signUpAttributes: [
        SignUpAttribute(name: "displayName", required: true),
        SignUpAttribute(name: "country", required: true, regex: "^[A-Z]{2}$"),
    ])

    enum CodingKeys: String, CodingKey {
        case signUpMethod, signUpAttributes, passwordPolicy, codeLifetime, continuationTokenLifetime, mfaRequired
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = NativeAuthSettings()
        signUpMethod = try c.decodeIfPresent(SignUpMethod.self, forKey: .signUpMethod) ?? defaults.signUpMethod
        signUpAttributes = try c.decodeIfPresent([SignUpAttribute].self, forKey: .signUpAttributes) ?? []
        passwordPolicy = try c.decodeIfPresent(PasswordPolicy.self, forKey: .passwordPolicy) ?? defaults.passwordPolicy
        codeLifetime = try c.decodeIfPresent(Int.self, forKey: .codeLifetime) ?? defaults.codeLifetime
        continuationTokenLifetime =
            try c.decodeIfPresent(Int.self, forKey: .continuationTokenLifetime)
            ?? defaults.continuationTokenLifetime
        mfaRequired = try c.decodeIfPresent(Bool.self, forKey: .mfaRequired) ?? defaults.mfaRequired
    }
}

/// A user attribute collected at sign-up. `name` is a user property the emulator stores
/// (``SignUpAttribute/supportedNames``).
public struct SignUpAttribute: Codable, Sendable {
    public static let supportedNames: Set<String> = [
        "displayName", "givenName", "surname", "country", "city", "jobTitle",
    ]

    public var name: String
    /// `string` (the only type the emulator collects).
    public var type: String
    public var required: Bool
    /// A regular expression the whole value must match.
    public var regex: String?

    public init(name: String, type: String = "string", required: Bool, regex: String? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.regex = regex
    }

    enum CodingKeys: String, CodingKey { case name, type, required, regex }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        type = try c.decodeIfPresent(String.self, forKey: .type) ?? "string"
        required = try c.decodeIfPresent(Bool.self, forKey: .required) ?? false
        regex = try c.decodeIfPresent(String.self, forKey: .regex)
    }

    /// True when `value` is acceptable (non-empty, at most 256 characters, matching `regex`).
    func accepts(_ value: String) -> Bool {
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty, value.count <= 256 else { return false }
        guard let regex else { return true }
        return value.range(of: "^(?:\(regex))$", options: .regularExpression) != nil
    }
}

/// Entra's password rules for customers: length bounds, three of four character classes, a banned
/// list, and not the password the user has now.
public struct PasswordPolicy: Codable, Sendable {
    public var minimumLength: Int
    public var maximumLength: Int
    /// How many of lower case, upper case, digits and symbols a password needs.
    public var requiredCharacterClasses: Int
    /// Refused outright, compared case-insensitively.
    public var banned: [String]

    public init(
        minimumLength: Int = 8, maximumLength: Int = 256, requiredCharacterClasses: Int = 3,
        banned: [String] = ["Password1!", "P@ssw0rd", "Passw0rd!", "Welcome1!", "Qwerty123!"]
    ) {
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.requiredCharacterClasses = requiredCharacterClasses
        self.banned = banned
    }

    enum CodingKeys: String, CodingKey { case minimumLength, maximumLength, requiredCharacterClasses, banned }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = PasswordPolicy()
        minimumLength = try c.decodeIfPresent(Int.self, forKey: .minimumLength) ?? defaults.minimumLength
        maximumLength = try c.decodeIfPresent(Int.self, forKey: .maximumLength) ?? defaults.maximumLength
        requiredCharacterClasses =
            try c.decodeIfPresent(Int.self, forKey: .requiredCharacterClasses)
            ?? defaults.requiredCharacterClasses
        banned = try c.decodeIfPresent([String].self, forKey: .banned) ?? defaults.banned
    }

    /// The native-auth suberror for a refused password, or `nil` when it is acceptable.
    ///
    /// - Parameters:
    ///   - username: refused when the password contains its local part.
    ///   - current: the user's password now; reusing it is `password_recently_used`.
    func problem(with password: String, username: String, current: String?) -> String? {
        if password.count < minimumLength { return "password_too_short" }
        if password.count > maximumLength { return "password_too_long" }
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "password_is_invalid"
        }
        if password == current { return "password_recently_used" }
        if banned.contains(where: { $0.caseInsensitiveCompare(password) == .orderedSame }) { return "password_banned" }
        let local = username.split(separator: "@").first.map(String.init) ?? username
        if local.count >= 3, password.lowercased().contains(local.lowercased()) { return "password_is_invalid" }
        let classes = [
            password.contains(where: \.isLowercase), password.contains(where: \.isUppercase),
            password.contains(where: \.isNumber), password.contains(where: { !$0.isLetter && !$0.isNumber }),
        ].filter { $0 }.count
        if classes < requiredCharacterClasses { return "password_too_weak" }
        return nil
    }
}
