import Foundation

/// What every native-auth step shares: the app it signs users into, the challenge types it declares,
/// sending a step, and turning a token answer into a signed-in account.
struct NativeAuthEngine: Sendable {
    /// The app the results' accounts get their tokens from.
    let app: PublicClientApplication
    let core: ApplicationCore
    let accounts: SignedInAccounts
    /// The wire value of `challenge_type`, e.g. `oob password redirect` (`redirect` is always added).
    let challengeTypes: String
    /// The wire value of `capabilities`, or `nil` when the app declares none.
    let capabilities: String?

    init(app: PublicClientApplication, challengeTypes: String, capabilities: String?) {
        self.app = app
        core = app.core
        accounts = app.signedIn
        self.challengeTypes = challengeTypes
        self.capabilities = capabilities
    }

    /// Sends a step to the app's authority; 4xx OAuth errors come back as ``NativeAuthAnswer/failure``.
    ///
    /// - Throws: ``MSALError`` for transport failures, 5xx and 429 answers, and bodies that are not JSON.
    func send(_ step: NativeAuthRequest.Step, correlationID: UUID) async throws -> NativeAuthAnswer {
        try Task.checkCancellation()
        let request = NativeAuthRequest(
            clientID: core.settings.clientID, challengeTypes: challengeTypes, capabilities: capabilities,
            step: step)
        return try await core.client.nativeAuth(
            request, authority: core.settings.authority.url, correlationID: correlationID)
    }

    /// What a start refuses before sending anything.
    enum RefusedInput {
        /// The username is empty, or only spaces.
        case blankUsername
        /// A password was given, and it is empty.
        case emptyPassword
    }

    /// Why a start with `username` and `password` is refused before any request, or `nil` when it is not.
    static func refused(username: String, password: String?) -> RefusedInput? {
        if username.trimmingCharacters(in: .whitespaces).isEmpty { return .blankUsername }
        if let password, password.isEmpty { return .emptyPassword }
        return nil
    }

    /// The error for a failure the flow does not turn into a result; a username the server calls
    /// invalid (`invalid_request`, 90100) is `invalidParameter`, as an empty one is.
    func error(_ failure: NativeAuthAnswer.Failure, correlationID: UUID) -> MSALError {
        if failure.error == "invalid_request", failure.firstCode == 90100,
            failure.oauth.description?.contains("username") == true
        {
            return MSALError(
                .invalidParameter, "The username is not valid.", oauthError: failure.error,
                stsErrorCodes: failure.oauth.errorCodes, httpStatus: failure.httpStatus, correlationID: correlationID)
        }
        return failure.oauth.msalError(httpStatus: failure.httpStatus, correlationID: correlationID)
    }

    /// Validates and caches a token answer and makes its account the app's only one (native auth is
    /// single-account: a new sign-in replaces the previous user).
    ///
    /// - Throws: ``MSALError`` `invalidIDToken`, `invalidResponse`, cache errors.
    func signedIn(_ answer: NativeAuthAnswer, grant: String, scopes: [String], correlationID: UUID) async throws
        -> NativeAuthUserAccount
    {
        let response = try TokenResponse(json: answer.body)
        let endpoints = try await core.resolver.endpoints(for: core.settings.authority, online: true)
        let result = try await core.responseHandler.handle(
            response,
            .init(
                endpoints: endpoints, requestedScopes: Scopes.decorated(scopes), nonce: nil, expectedObjectID: nil,
                grant: grant, usedRefreshToken: nil, correlationID: correlationID,
                cacheForAccount: { [cache = accounts.cache] _ in cache }))
        for other in try await accounts.all() where other.identifier != result.account.identifier {
            try await accounts.remove(other)
        }
        try await accounts.signedIn(result.account)
        core.log.info("native sign-in finished", ["grant": grant], pii: ["username": result.account.username])
        return NativeAuthUserAccount(app: app, account: result.account, idToken: result.idToken, scopes: scopes)
    }

    /// The signed-in user from the cache (the app's current account) with its ID token, or `nil`.
    func currentUser() async throws -> NativeAuthUserAccount? {
        guard let account = try await accounts.current().current else { return nil }
        let endpoints = try await core.resolver.endpoints(for: core.settings.authority)
        let idToken = try await accounts.cache.idToken(
            homeAccountID: account.identifier, clientID: core.settings.clientID,
            realm: account.homeAccountID.tenantID, environments: endpoints.aliases)
        return NativeAuthUserAccount(app: app, account: account, idToken: idToken?.secret, scopes: [])
    }

}

/// Which challenges the app can present; `redirect` (fall back to the browser) is always declared.
public struct NativeAuthChallengeTypes: OptionSet, Sendable {
    /// The bits of the set.
    public let rawValue: Int
    /// A set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A one-time code sent by email.
    public static let oob = NativeAuthChallengeTypes(rawValue: 1 << 0)
    /// Passwords.
    public static let password = NativeAuthChallengeTypes(rawValue: 1 << 1)

    var wireValue: String {
        ((contains(.oob) ? ["oob"] : []) + (contains(.password) ? ["password"] : []) + ["redirect"]).joined(
            separator: " ")
    }
}

/// What the app can do natively beyond its challenge types: MFA, and registering a strong authentication method for
/// a user who has none. Without them, a user who needs either is sent to the browser (`browserRequired`).
public struct NativeAuthCapabilities: OptionSet, Sendable {
    /// The bits of the set.
    public let rawValue: Int
    /// A set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The app can run a second factor (`mfa_required`).
    public static let mfaRequired = NativeAuthCapabilities(rawValue: 1 << 0)
    /// The app can register a strong authentication method (`registration_required`).
    public static let registrationRequired = NativeAuthCapabilities(rawValue: 1 << 1)

    /// `mfa_required registration_required`, or `nil` for none.
    var wireValue: String? {
        let values =
            (contains(.mfaRequired) ? ["mfa_required"] : [])
            + (contains(.registrationRequired)
                ? ["registration_required"] : [])
        return values.isEmpty ? nil : values.joined(separator: " ")
    }
}
