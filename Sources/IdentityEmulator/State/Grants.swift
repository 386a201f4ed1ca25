import Foundation

/// An authorization request waiting for the user on the sign-in pages (`flow` id in the forms).
struct PendingAuthorization: Sendable {
    enum Completion: Sendable {
        /// Redirect to the client with a code (the authorize endpoint).
        case redirect
        /// Approve a device code (the `/devicelogin` page).
        case device(userCode: String)
    }

    let completion: Completion
    let selectorSegment: String
    let client: Application
    let redirectURI: String
    let responseMode: String
    let scopes: ScopeSet
    let rawScope: String
    let state: String?
    let nonce: String?
    let codeChallenge: String?
    let codeChallengeMethod: String?
    let prompt: String?
    let loginHint: String?
    let domainHint: String?
    let clientInfo: Bool
    let claims: String?
    /// The B2C user flow the request came through (`/{tenant}/{policy}/oauth2/v2.0/authorize`); `nil` on Entra's.
    var policy: String? = nil
    var progress = InteractionProgress()
    /// The `buid` cookie of the browser that started the request; the sign-in forms accept only its posts.
    var browserID = ""
}

/// An issued authorization code (single use, 10 minutes).
struct AuthorizationCodeGrant: Sendable {
    let clientID: String
    let redirectURI: String
    let codeChallenge: String?
    let codeChallengeMethod: String?
    let nonce: String?
    let scopes: ScopeSet
    let tenantID: String
    let objectID: String
    let sessionID: String
    let expiresAt: Date
    var redeemed = false
}

/// An issued refresh token. Rotation issues new ones; old ones stay valid until revoked.
struct RefreshTokenGrant: Sendable {
    let clientID: String
    let familyID: String?
    let userID: String
    let tenantID: String
    let issuedAt: Date
}

/// A device authorization (RFC 8628) waiting for the user at `/devicelogin`.
struct DeviceAuthorization: Sendable {
    enum Status: Sendable {
        case pending
        case approved(tenantID: String, objectID: String)
        case declined
        case redeemed
    }

    let deviceCode: String
    let userCode: String
    let client: Application
    let selectorSegment: String
    let scopes: ScopeSet
    let rawScope: String
    /// The `claims` sent with the device authorization request (client capabilities).
    let claims: String?
    let expiresAt: Date
    var status: Status = .pending
}

/// A browser's single sign-on session (the `ESTSAUTH` cookie), with the accounts signed in.
struct BrowserSession: Sendable {
    let id: String
    /// The `session_state` sent to apps: an opaque id that is not the cookie.
    let state: String
    /// Home object ids, most recent first.
    var userIDs: [String]
}

/// A message the emulator "sent" (one-time codes), readable at `/_emulator/outbox`.
struct OutboxMessage: Sendable {
    let to: String
    let subject: String
    let code: String
    let sentAt: Date

    var json: JSONValue {
        .object([
            ("to", .string(to)), ("subject", .string(subject)), ("code", .string(code)),
            ("sentAt", .string(sentAt.estsTimestamp)),
        ])
    }
}

/// One request the emulator served, for tests that count network calls (`/_emulator/requests`).
struct ServedRequest: Sendable {
    let method: String
    /// The `Host` the request named, e.g. `westus2.localhost:8443` for a regional request.
    let host: String?
    let path: String
    let grantType: String?
    let clientID: String?
    /// The `client-request-id` header.
    let correlationID: String?
    let status: Int
    let at: Date

    var json: JSONValue {
        .object([
            ("method", .string(method)), ("host", .optional(host)), ("path", .string(path)),
            ("grant_type", .optional(grantType)),
            ("client_id", .optional(clientID)), ("client_request_id", .optional(correlationID)),
            ("status", .int(status)), ("at", .string(at.estsTimestamp)),
        ])
    }
}

/// What the user has done so far on the sign-in pages of one authorization request.
struct InteractionProgress: Sendable {
    /// The chosen account's home object id and the SSO session it is in.
    var userID: String?
    var sessionID: String?
    var consentGiven = false
    /// A sign-up waiting for its email code.
    var signUp: SignUpDraft?
    /// A B2C password reset waiting for its email code.
    var passwordReset: PasswordResetDraft?
    /// The B2C profile edit page was submitted.
    var profileEdited = false
}

/// A password reset started on a B2C password reset user flow: the code sent to the user's email.
struct PasswordResetDraft: Sendable {
    let userID: String
    let email: String
    let code: String
    let expiresAt: Date
    /// Wrong codes entered so far; the code is void at ``NativeFlow/maximumWrongCodes``.
    var wrongCodes = 0
}

/// A sign-up started on the External ID sign-up page.
struct SignUpDraft: Sendable {
    let email: String
    let displayName: String
    let password: String
    let code: String
    let expiresAt: Date
    /// Wrong codes entered so far; the code is void at ``NativeFlow/maximumWrongCodes``.
    var wrongCodes = 0
}
