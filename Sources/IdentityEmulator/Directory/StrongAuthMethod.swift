import Foundation

/// A strong-authentication (MFA) method a customer registered: a one-time code by email or by text message.
///
/// Native authentication lists these at `/oauth2/v2.0/introspect` and sends the second-factor code to
/// `target`; methods registered just in time (`/register/v1.0/…`) are added to the user's list.
public struct StrongAuthMethod: Codable, Sendable, Equatable {
    /// The method id, a GUID: the `id` a client passes to `/oauth2/v2.0/challenge`.
    public var id: String
    /// `email` or `sms`.
    public var channel: String
    /// An email address (`email`) or an E.164 phone number such as `+15555550123` (`sms`).
    public var target: String

    public init(id: String, channel: String, target: String) {
        self.id = id
        self.channel = channel
        self.target = target
    }

    /// The channels the emulator delivers codes on.
    public static let channels: Set<String> = ["email", "sms"]

    /// Why `target` is not a valid contact for `channel`, or `nil` when it is.
    ///
    /// An email address needs one `@` with text on both sides and no spaces; a phone number is `+` and
    /// 7 to 15 digits.
    static func problem(channel: String, target: String) -> String? {
        switch channel {
        case "email":
            let parts = target.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
                !target.contains(where: \.isWhitespace)
            else { return "must be an email address such as name@example.com" }
            return nil
        case "sms":
            guard target.range(of: #"^\+[0-9]{7,15}$"#, options: .regularExpression) != nil else {
                return "must be an E.164 phone number such as +15555550123"
            }
            return nil
        default:
            return "the channel must be email or sms"
        }
    }

    /// The target as Entra shows it: `l***@e******.com` for an email address, `+*******0123` for a phone
    /// (the last four digits kept).
    var maskedTarget: String {
        channel == "sms" ? Self.maskPhone(target) : NativeAuthSupport.mask(target)
    }

    /// `+15555550123` → `+*******0123`.
    static func maskPhone(_ phone: String) -> String {
        let digits = phone.hasPrefix("+") ? String(phone.dropFirst()) : phone
        let kept = String(digits.suffix(4))
        let hidden = String(repeating: "*", count: max(digits.count - kept.count, 0))
        return "+" + hidden + kept
    }
}

extension User {
    /// Whether the user must pass a second factor: their own ``mfaRequired``, else the tenant's native
    /// authentication policy (`settings`); `false` for a workforce tenant's user without their own setting.
    func needsSecondFactor(tenantSettings settings: NativeAuthSettings?) -> Bool {
        mfaRequired ?? settings?.mfaRequired ?? false
    }
}
