import Foundation

/// Native authentication for Entra External ID: the app's own screens sign customers up, in (password or
/// email code) and reset passwords; the results carry the next state. One signed-in user at a time.
///
/// Every other call of a ``PublicClientApplication`` is available through ``application``.
public final class NativeAuthApplication: Sendable {
    /// The app underneath, for every other call (accounts, interactive and silent tokens, sign-out).
    public let application: PublicClientApplication
    let engine: NativeAuthEngine

    /// A native-auth app from its configuration.
    ///
    /// - Parameters:
    ///   - configuration: the app; its authority is the External ID tenant, e.g.
    ///     `https://contoso.ciamlogin.com/contoso.onmicrosoft.com`.
    ///   - challengeTypes: what the app can collect; anything else ends in `browserRequired`.
    ///   - capabilities: whether the app runs MFA and strong-method registration; a user who needs what the app
    ///     cannot do ends in `browserRequired`.
    /// - Throws: ``MSALError`` `invalidParameter` for an empty client id.
    public init(
        configuration: PublicClientApplicationConfiguration,
        challengeTypes: NativeAuthChallengeTypes = [.oob, .password], capabilities: NativeAuthCapabilities = []
    ) throws {
        application = try PublicClientApplication(configuration: configuration)
        engine = NativeAuthEngine(
            app: application, challengeTypes: challengeTypes.wireValue, capabilities: capabilities.wireValue)
    }

    /// Starts a sign-in. With a password, a password user is signed in at once.
    ///
    /// - Parameters:
    ///   - username: the user's username, usually an email address.
    ///   - password: the password; with `nil` the result asks for a one-time code or the password.
    ///   - scopes: scopes besides `openid offline_access profile` (always added).
    ///   - claims: a claims request (JSON) sent with the token request, e.g. for a Conditional Access context.
    ///   - correlationID: the id every request of the sign-in carries (a new one when `nil`).
    /// - Throws: ``MSALError`` `invalidParameter` for an empty username or password; server and transport errors.
    public func signIn(
        username: String, password: String? = nil, scopes: [String] = [], claims: String? = nil,
        correlationID: UUID? = nil
    ) async throws -> SignInResult {
        try Self.check(username: username, password: password)
        return try await engine.signIn(
            username: username.trimmingCharacters(in: .whitespaces), password: password, scopes: scopes,
            claims: claims, correlationID: correlationID)
    }

    /// Starts a sign-up: the email is verified with a code, then the password and the tenant's
    /// required attributes are collected (those given here are sent at once).
    ///
    /// - Parameters:
    ///   - username: the new user's username, an email address.
    ///   - password: the password, or `nil` to be asked for it when the tenant needs one.
    ///   - attributes: user attributes by name, each sent as its JSON type.
    ///   - correlationID: the id every request of the sign-up carries (a new one when `nil`).
    /// - Throws: ``MSALError`` `invalidParameter` for an empty username or password; server and transport errors.
    public func signUp(
        username: String, password: String? = nil, attributes: [String: AttributeValue] = [:],
        correlationID: UUID? = nil
    ) async throws -> SignUpResult {
        try Self.check(username: username, password: password)
        return try await engine.signUp(
            username: username.trimmingCharacters(in: .whitespaces), password: password, attributes: attributes,
            correlationID: correlationID)
    }

    /// Starts a password reset: a code to the user's email, then a new password.
    ///
    /// - Parameters:
    ///   - username: the user's username.
    ///   - correlationID: the id every request of the reset carries (a new one when `nil`).
    /// - Throws: ``MSALError`` `invalidParameter` for an empty username; server and transport errors.
    public func resetPassword(username: String, correlationID: UUID? = nil) async throws -> ResetPasswordResult {
        try Self.check(username: username, password: nil)
        return try await engine.resetPassword(
            username: username.trimmingCharacters(in: .whitespaces), correlationID: correlationID)
    }

    /// The signed-in user from the cache (also from an earlier run with a persistent cache), or `nil`.
    ///
    /// - Throws: ``MSALError`` for discovery and cache errors.
    public func currentAccount() async throws -> NativeAuthUserAccount? {
        try await engine.currentUser()
    }

    private static func check(username: String, password: String?) throws {
        switch NativeAuthEngine.refused(username: username, password: password) {
        case .blankUsername?: throw MSALError.internal(.invalidParameter, "The username is empty.")
        case .emptyPassword?: throw MSALError.internal(.invalidParameter, "The password is empty.")
        case nil: break
        }
    }
}
