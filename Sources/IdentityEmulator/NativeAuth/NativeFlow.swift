import Foundation

/// What a continuation token stands for: one native-auth flow of one user and client, and how far it got.
struct NativeFlow: Sendable {
    /// Wrong one-time codes in a row that void the code sent (the user must ask for a new one).
    static let maximumWrongCodes = 5

    enum Kind: String, Sendable {
        case signIn, signUp, resetPassword
    }

    enum Stage: Sendable, Equatable {
        /// `initiate` / `start` answered; a challenge comes next.
        case started
        /// A one-time code was sent and not yet verified.
        case codeSent
        /// The client was told to collect the password.
        case passwordChallenge
        /// Sign-up: the email is verified but the password is missing (`credential_required`).
        case needsPassword
        /// Sign-up: required attributes are missing (`attributes_required`).
        case needsAttributes
        /// Password reset: the code is verified; a new password comes next.
        case verified
        /// Password reset: the new password is being applied; polls left before it succeeds.
        case resetting(pollsLeft: Int)
        /// Done: the token endpoint may sign `userID` in with `grant_type=continuation_token`. For a sign-in
        /// flow this follows a just-in-time method registration, which counts as the second factor.
        case completed(userID: String)
        /// Sign-in: the first factor passed but the user must pass MFA (`mfa_required`); `/oauth2/v2.0/introspect`
        /// lists the methods and `/oauth2/v2.0/challenge` sends a code.
        case mfaRequired
        /// Sign-in: an MFA code was sent on the method `methodID`; the token endpoint takes it
        /// (`grant_type=mfa_oob` or `oob`).
        case mfaCodeSent(methodID: String)
        /// Sign-in: the first factor passed, MFA is required and the user has no method
        /// (`registration_required`); `/register/v1.0/challenge` comes next.
        case registrationRequired
        /// Sign-in: a code was sent to the contact being registered (or none was needed, the flow's `code`
        /// being `nil`: the contact is the user's verified email, `preverified`); `/register/v1.0/continue` next.
        case registrationCodeSent(channel: String, target: String)
    }

    /// A one-time code sent to the user.
    struct Code: Sendable, Equatable {
        let value: String
        let expiresAt: Date
    }

    let kind: Kind
    let clientID: String
    let tenantID: String
    let username: String
    /// The challenge types the client declared (`oob`, `password`, `redirect`).
    let challengeTypes: Set<String>
    /// The capabilities the client declared on the flow's first call (`mfa_required`, `registration_required`),
    /// lower case; kept through the whole flow, including the sign-in after a sign-up or password reset.
    let capabilities: Set<String>
    var stage: Stage
    var code: Code?
    /// Wrong codes entered against ``code`` so far.
    var wrongCodes = 0
    /// Sign-up: the password given so far.
    var password: String?
    /// Sign-up: the attributes given so far.
    var attributes: [String: String]
    /// Sign-up: the email was verified with a code.
    var emailVerified: Bool
    var expiresAt: Date

    init(
        kind: Kind, clientID: String, tenantID: String, username: String, challengeTypes: Set<String>,
        stage: Stage = .started, password: String? = nil, attributes: [String: String] = [:],
        capabilities: Set<String> = [], expiresAt: Date
    ) {
        self.kind = kind
        self.clientID = clientID
        self.tenantID = tenantID
        self.username = username
        self.challengeTypes = challengeTypes
        self.capabilities = capabilities
        self.stage = stage
        self.password = password
        self.attributes = attributes
        emailVerified = false
        self.expiresAt = expiresAt
    }
}

extension NativeFlow {
    /// A fresh sign-in flow of the same user and client at `stage`, keeping the declared challenge types and
    /// capabilities but nothing else (no code, no sign-up password): the second factor after a first one.
    func signIn(at stage: Stage) -> NativeFlow {
        NativeFlow(
            kind: .signIn, clientID: clientID, tenantID: tenantID, username: username, challengeTypes: challengeTypes,
            stage: stage, capabilities: capabilities, expiresAt: expiresAt)
    }
}
