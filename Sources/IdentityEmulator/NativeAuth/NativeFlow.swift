import Foundation

/// What a continuation token stands for: one native-auth flow of one user and client, and how far it got.
struct NativeFlow: Sendable {
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
        /// Done: the token endpoint may sign `userID` in with `grant_type=continuation_token`.
        case completed(userID: String)
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
    var stage: Stage
    var code: Code?
    /// Sign-up: the password given so far.
    var password: String?
    /// Sign-up: the attributes given so far.
    var attributes: [String: String]
    /// Sign-up: the email was verified with a code.
    var emailVerified: Bool
    var expiresAt: Date

    init(
        kind: Kind, clientID: String, tenantID: String, username: String, challengeTypes: Set<String>,
        stage: Stage = .started, password: String? = nil, attributes: [String: String] = [:], expiresAt: Date
    ) {
        self.kind = kind
        self.clientID = clientID
        self.tenantID = tenantID
        self.username = username
        self.challengeTypes = challengeTypes
        self.stage = stage
        self.password = password
        self.attributes = attributes
        emailVerified = false
        self.expiresAt = expiresAt
    }
}
