import Foundation
import HTTPTypes

/// A public client (a CLI, a desktop or server-side app acting for a user): signs users in, keeps
/// their tokens, and returns them silently while it can.
public final class PublicClientApplication: Sendable {
    let core: ApplicationCore
    /// The configuration the app was made with.
    public let configuration: PublicClientApplicationConfiguration
    let signedIn: SignedInAccounts
    private let silent: SilentFlow

    /// Makes an app from its configuration; the configuration's ``TokenCache`` holds its accounts.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for an empty client id, or, with the default transport, a malformed
    ///   proxy variable (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`).
    public init(configuration: PublicClientApplicationConfiguration) throws {
        guard !configuration.clientID.allSatisfy(\.isWhitespace) else {
            throw MSALError.internal(.invalidParameter, "The client id is empty.")
        }
        try DeferredDefaultTransport.make(ifDefault: configuration.transport)
        self.configuration = configuration
        core = ApplicationCore(ClientSettings(configuration), authentication: .publicClient)
        signedIn = SignedInAccounts(app: core, cache: configuration.cache)
        silent = SilentFlow(app: core, cache: configuration.cache, partition: nil)
    }

    private var cache: TokenCache { configuration.cache }

    /// Signs a user in through the browser (authorization code + PKCE, loopback redirect).
    ///
    /// - Throws: ``MSALError``: `userCanceled` when the user cancels, `timedOut` when no redirect
    ///   arrives in time, `invalidState`, `invalidIDToken`, `serverDeclinedScopes`, server errors;
    ///   `CancellationError` when the task is cancelled (the listener is closed either way).
    public func acquireTokenInteractively(_ parameters: InteractiveParameters) async throws -> AuthenticationResult {
        let result = try await InteractiveFlow(app: core, config: configuration, cache: cache).run(parameters)
        try await signedIn.signedIn(result.account)
        return result
    }

    /// Signs a user in with a code entered on another device (RFC 8628).
    ///
    /// - Parameters:
    ///   - parameters: the scopes, and optionally another authority and a claims request.
    ///   - onCode: receives the message, user code and URL to show; called once before polling.
    /// - Throws: ``MSALError``: `userCanceled` when the user declines, `timedOut` when the code
    ///   expires; `CancellationError` when cancelled.
    public func acquireTokenByDeviceCode(
        _ parameters: DeviceCodeParameters, onCode: @Sendable (DeviceCodeInfo) async throws -> Void
    ) async throws -> AuthenticationResult {
        let result = try await DeviceCodeFlow(app: core, cache: cache).run(
            scopes: parameters.scopes, authority: parameters.authority, claims: parameters.claims,
            extraQueryParameters: parameters.extraQueryParameters, onCode: onCode)
        try await signedIn.signedIn(result.account)
        return result
    }

    /// Signs a user in with their username and password (resource owner password credentials), as test automation
    /// and `az login -u` do. A legacy grant: no multi-factor authentication, no personal Microsoft accounts, and
    /// no federated users (MSAL reaches their identity provider over WS-Trust; this library does not). The user
    /// realm is asked first, so a federated user's password is never sent.
    ///
    /// - Throws: ``MSALError``: `interactionRequired` for a federated user, or when the user must pass MFA
    ///   (AADSTS50076, `suberror` `basic_action`) or consent; `invalidGrant` for a wrong username or password
    ///   (AADSTS50126); `invalidParameter` for an empty username; server and transport errors.
    public func acquireTokenByUsernamePassword(_ parameters: UsernamePasswordParameters) async throws
        -> AuthenticationResult
    {
        let result = try await UsernamePasswordFlow(app: core, cache: cache).run(parameters)
        try await signedIn.signedIn(result.account)
        return result
    }

    /// A token from the cache, or refreshed with the refresh token.
    ///
    /// - Throws: ``MSALError`` `interactionRequired` (with the server's `error`, `suberror` and codes)
    ///   when only the user can fix it; `serverDeclinedScopes`; server and transport errors, which
    ///   leave the cache untouched.
    public func acquireTokenSilently(_ parameters: SilentParameters) async throws -> AuthenticationResult {
        try await silent.run(parameters)
    }

    /// Every account in the cache for this app's identity provider.
    public func accounts() async throws -> [Account] {
        try await signedIn.all()
    }

    /// Whether the cache holds an account for any identity provider (one with this username,
    /// case-insensitive, when given). Answered from the cache alone, without discovery, so a caller can
    /// tell that nobody is signed in before any request; ``accounts()`` then narrows to this authority.
    public func hasCachedAccount(username: String? = nil) async throws -> Bool {
        guard let username else { return try await cache.hasAccounts() }
        return try await cache.accounts().contains { $0.username.equalsIgnoringCase(username) }
    }

    /// The signed-in account of a single-account app and the one signed in before it, remembered
    /// across runs (MSAL's `getCurrentAccount`).
    ///
    /// - Returns: ``CurrentAccount/current`` is the last account signed in, or the only cached one;
    ///   ``CurrentAccount/previous`` the one before, also after it signed out.
    /// - Throws: ``MSALError`` `ambiguousAccount` when several accounts are cached and none was signed in last.
    public func currentAccount() async throws -> CurrentAccount {
        try await signedIn.current()
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
        let endpoints = try await core.resolver.endpoints(for: configuration.authority, online: fromBrowser)
        try await removeAccount(account)
        guard fromBrowser, let endSession = endpoints.endSession else { return }
        let request = EndSessionRequest(clientID: configuration.clientID)
        try await (browser ?? configuration.browser).open(request.url(endpoint: endSession))
    }

    /// Removes the account's tokens for this app from the cache.
    public func removeAccount(_ account: Account) async throws {
        try await signedIn.remove(account)
    }

    /// Device mode, as the tutorials' "Get device info" shows it.
    public func deviceInformation() -> DeviceInformation {
        DeviceInformation(deviceMode: configuration.deviceMode, hasSSOExtension: false)
    }

    /// Sends `request` with `body` and a bearer token for `scopes` (in place of any `Authorization` field it has),
    /// and answers with the response, whatever its status, and its body. On a 401 claims challenge it gets a new
    /// token with those claims and retries once.
    ///
    ///     let (response, body) = try await app.send(
    ///         HTTPRequest(method: .get, url: URL(string: "https://graph.microsoft.com/v1.0/me")!),
    ///         scopes: ["User.Read"], account: account)
    ///
    /// - Throws: ``MSALError`` `interactionRequired` carrying ``MSALError/claimsChallenge`` when only an
    ///   interactive sign-in can satisfy the challenge; token and transport errors.
    public func send(_ request: HTTPRequest, body: Data? = nil, scopes: [String], account: Account) async throws
        -> (HTTPResponse, Data)
    {
        let token = try await acquireTokenSilently(SilentParameters(scopes: scopes, account: account))
        let answer = try await send(request, body: body, token: token)
        guard answer.0.status == .unauthorized, let header = answer.0.headerFields[values: .wwwAuthenticate].first,
            let challenge = ClaimsChallenge(wwwAuthenticate: header)
        else { return answer }
        try await cache.removeAccessToken(homeAccountID: account.identifier, secret: token.accessToken)
        var parameters = SilentParameters(scopes: scopes, account: account, forceRefresh: true)
        parameters.claims = challenge.claims
        let renewed: AuthenticationResult
        do {
            renewed = try await acquireTokenSilently(parameters)
        } catch let error as MSALError {
            throw error.with(claimsChallenge: challenge.claims)
        }
        return try await send(request, body: body, token: renewed)
    }

    private func send(_ request: HTTPRequest, body: Data?, token: AuthenticationResult) async throws
        -> (HTTPResponse, Data)
    {
        var authorized = request
        authorized.headerFields[.authorization] = nil
        authorized.headerFields.append(HTTPField(name: .authorization, value: token.authorizationHeader))
        return try await configuration.transport.send(authorized, body: body)
    }
}
