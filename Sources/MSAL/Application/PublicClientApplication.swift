import Foundation

/// A public client (a CLI, a desktop or server-side app acting for a user): signs users in, keeps
/// their tokens, and returns them silently while it can.
public final class PublicClientApplication: Sendable {
    let core: ApplicationCore

    /// Makes an app from its configuration; the configuration's ``TokenCache`` holds its accounts.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for an empty client id.
    public init(configuration: PublicClientApplicationConfiguration) throws {
        guard !configuration.clientID.allSatisfy(\.isWhitespace) else {
            throw MSALError.internal(.invalidParameter, "The client id is empty.")
        }
        core = ApplicationCore(configuration)
    }

    /// The configuration the app was made with.
    public var configuration: PublicClientApplicationConfiguration { core.configuration }

    /// Signs a user in through the browser (authorization code + PKCE, loopback redirect).
    ///
    /// - Throws: ``MSALError``: `userCanceled` when the user cancels, `timedOut` when no redirect
    ///   arrives in time, `invalidState`, `invalidIDToken`, `serverDeclinedScopes`, server errors;
    ///   `CancellationError` when the task is cancelled (the listener is closed either way).
    public func acquireTokenInteractively(_ parameters: InteractiveParameters) async throws -> AuthenticationResult {
        let result = try await InteractiveFlow(app: core).run(parameters)
        try await core.cache.setPrincipal(clientID: core.configuration.clientID, PrincipalAccount(result.account))
        return result
    }

    /// Signs a user in with a code entered on another device (RFC 8628).
    ///
    /// - Parameters:
    ///   - scopes: the scopes to request; `openid`, `profile` and `offline_access` are added.
    ///   - authority: another authority than the app's, e.g. a specific tenant.
    ///   - claims: a claims request (JSON), e.g. from a claims challenge.
    ///   - onCode: receives the message, user code and URL to show; called once before polling.
    /// - Throws: ``MSALError``: `userCanceled` when the user declines, `timedOut` when the code
    ///   expires; `CancellationError` when cancelled.
    public func acquireTokenByDeviceCode(
        scopes: [String], authority: Authority? = nil, claims: String? = nil,
        onCode: @Sendable (DeviceCodeInfo) async throws -> Void
    ) async throws -> AuthenticationResult {
        let result = try await DeviceCodeFlow(app: core).run(
            scopes: scopes, authority: authority, claims: claims, onCode: onCode)
        try await core.cache.setPrincipal(clientID: core.configuration.clientID, PrincipalAccount(result.account))
        return result
    }

    /// A token from the cache, or refreshed with the refresh token.
    ///
    /// - Throws: ``MSALError`` `interactionRequired` (with the server's `error`, `suberror` and codes)
    ///   when only the user can fix it; `serverDeclinedScopes`; server and transport errors, which
    ///   leave the cache untouched.
    public func acquireTokenSilently(_ parameters: SilentParameters) async throws -> AuthenticationResult {
        try await SilentFlow(app: core).run(parameters)
    }

    /// Every account in the cache for this app's identity provider.
    public func accounts() async throws -> [Account] {
        let endpoints = try await core.resolver.endpoints(for: core.configuration.authority)
        return try await core.accounts.accounts(environments: endpoints.aliases)
    }

    /// Whether the cache holds an account for any identity provider (one with this username,
    /// case-insensitive, when given). Answered from the cache alone, without discovery, so a caller can
    /// tell that nobody is signed in before any request; ``accounts()`` then narrows to this authority.
    public func hasCachedAccount(username: String? = nil) async throws -> Bool {
        guard let username else { return try await core.cache.hasAccounts() }
        return try await core.cache.accounts().contains { $0.username.equalsIgnoringCase(username) }
    }

    /// The signed-in account of a single-account app and the one signed in before it, remembered
    /// across runs (MSAL's `getCurrentAccount`).
    ///
    /// - Returns: `current` is the last account signed in, or the only cached one; `previous` the one
    ///   before, also after it signed out (then with its identifier, username and environment only).
    /// - Throws: ``MSALError`` `ambiguousAccount` when several accounts are cached and none was signed in last.
    public func currentAccount() async throws -> (current: Account?, previous: Account?) {
        let all = try await accounts()
        let (principal, previous) = try await core.cache.principal(clientID: core.configuration.clientID)
        func find(_ id: String?) -> Account? {
            id.flatMap { id in all.first { $0.identifier.equalsIgnoringCase(id) } }
        }
        let previousAccount = find(previous?.homeAccountID) ?? previous.map(Account.init(signedOut:))
        if let current = find(principal?.homeAccountID) { return (current, previousAccount) }
        guard all.count <= 1 else {
            throw MSALError.internal(
                .ambiguousAccount, "Several accounts are signed in; pick one with accounts() or account(username:).")
        }
        return (all.first, previousAccount)
    }

    /// The account with this ``Account/identifier``, if cached.
    public func account(identifier: String) async throws -> Account? {
        try await accounts().first { $0.identifier.equalsIgnoringCase(identifier) }
    }

    /// The account with this username (case-insensitive), if cached.
    public func account(username: String) async throws -> Account? {
        try await accounts().first { $0.username.equalsIgnoringCase(username) }
    }

    /// Signs the account out of this app: forgets its tokens (and the family refresh token) and, with
    /// `fromBrowser`, opens the identity provider's sign-out page to end the browser session too.
    ///
    /// - Parameters:
    ///   - account: the account to sign out.
    ///   - fromBrowser: also end the browser session (`false` by default).
    ///   - browser: opens the sign-out page; the app's browser when `nil`.
    public func signOut(_ account: Account, fromBrowser: Bool = false, browser: (any BrowserLauncher)? = nil)
        async throws
    {
        let endpoints = try await core.resolver.endpoints(for: core.configuration.authority, online: fromBrowser)
        try await removeAccount(account)
        guard fromBrowser, let endSession = endpoints.endSession else { return }
        let request = EndSessionRequest(clientID: core.configuration.clientID)
        try await (browser ?? core.configuration.browser).open(request.url(endpoint: endSession))
    }

    /// Removes the account's tokens for this app from the cache.
    public func removeAccount(_ account: Account) async throws {
        let endpoints = try await core.resolver.endpoints(for: core.configuration.authority)
        let metadata = try await core.cache.appMetadata(
            clientID: core.configuration.clientID, environments: endpoints.aliases)
        try await core.cache.removeAccount(
            homeAccountID: account.identifier, clientID: core.configuration.clientID,
            familyID: metadata?.familyID)
        let (current, _) = try await core.cache.principal(clientID: core.configuration.clientID)
        if current?.homeAccountID.equalsIgnoringCase(account.identifier) == true {
            try await core.cache.setPrincipal(clientID: core.configuration.clientID, nil)
        }
    }

    /// Device mode, as the tutorials' "Get device info" shows it.
    public func deviceInformation() -> DeviceInformation {
        DeviceInformation(deviceMode: core.configuration.deviceMode, hasSSOExtension: false)
    }

    /// Sends `request` with a bearer token for `scopes`. On a 401 claims challenge it gets a new token
    /// with those claims and retries once.
    ///
    /// - Throws: ``MSALError`` `interactionRequired` carrying ``MSALError/claimsChallenge`` when only an
    ///   interactive sign-in can satisfy the challenge; token and transport errors.
    public func send(_ request: HTTPRequest, scopes: [String], account: Account) async throws -> HTTPResponse {
        let token = try await acquireTokenSilently(SilentParameters(scopes: scopes, account: account))
        let response = try await send(request, token: token)
        guard response.status == 401, let header = response.header("WWW-Authenticate"),
            let challenge = ClaimsChallenge(wwwAuthenticate: header)
        else { return response }
        try await core.cache.removeAccessToken(homeAccountID: account.identifier, secret: token.accessToken)
        var parameters = SilentParameters(scopes: scopes, account: account, forceRefresh: true)
        parameters.claims = challenge.claims
        let renewed: AuthenticationResult
        do {
            renewed = try await acquireTokenSilently(parameters)
        } catch var error as MSALError {
            error.claimsChallenge = challenge.claims
            throw error
        }
        return try await send(request, token: renewed)
    }

    private func send(_ request: HTTPRequest, token: AuthenticationResult) async throws -> HTTPResponse {
        var authorized = request
        authorized.headers.removeAll { $0.name.equalsIgnoringCase("Authorization") }
        authorized.headers.append(("Authorization", token.authorizationHeader))
        return try await core.configuration.transport.send(authorized)
    }
}
