/// An Azure AD B2C user flow (a policy): the pages a user goes through at
/// `/{tenant}/{policy}/oauth2/v2.0/authorize`, named in the tokens' `tfp` claim.
public struct B2CUserFlow: Codable, Sendable, Hashable {
    /// What the flow asks of the user.
    public enum Kind: String, Codable, Sendable {
        /// Sign in, with a link to sign up (an email code) and one to the password reset (`AADB2C90118`).
        case signUpOrSignIn
        /// Reset a forgotten password with a code sent by email, then sign in.
        case passwordReset
        /// Sign in (or use the browser's session), then change the display name.
        case profileEdit
    }

    /// The policy name, e.g. `B2C_1_signupsignin`; compared without regard to case, as B2C does.
    public var name: String
    public var kind: Kind

    /// A user flow named `name` (the policy in its authorities' paths and its tokens' `tfp`) of the kind given.
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The user flows a B2C tenant has when its directory entry names none.
    public static let standard = [
        B2CUserFlow(name: "B2C_1_signupsignin", kind: .signUpOrSignIn),
        B2CUserFlow(name: "B2C_1_passwordreset", kind: .passwordReset),
        B2CUserFlow(name: "B2C_1_profileedit", kind: .profileEdit),
    ]
}
