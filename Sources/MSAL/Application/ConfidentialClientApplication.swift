import Foundation

/// A confidential client: a daemon, web app or web API that holds a credential (a secret, a
/// certificate or a federated assertion). It gets app-only tokens (client credentials), signs users in
/// to a web app (authorization code), and calls downstream APIs on behalf of a user (on-behalf-of).
///
/// Its cache is partitioned (``TokenCachePartition``): every call reads and writes one partition.
public final class ConfidentialClientApplication: Sendable {
    let core: ApplicationCore
    /// The app's configuration.
    public let configuration: ConfidentialClientApplicationConfiguration
    private let clientCredentials: ClientCredentialsFlow

    /// Makes an app from its configuration.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for an empty client id, an ``AzureRegion`` whose name is not a region's
    ///   or whose authority is not Entra's, or, with the default transport, a malformed proxy variable (`HTTPS_PROXY`,
    ///   `HTTP_PROXY`, `ALL_PROXY`).
    public init(configuration: ConfidentialClientApplicationConfiguration) throws {
        guard !configuration.clientID.allSatisfy(\.isWhitespace) else {
            throw MSALError.internal(.invalidParameter, "The client id is empty.")
        }
        var configuration = configuration
        configuration.cache = configuration.cache.followingClock(configuration.clock)
        try DeferredDefaultTransport.make(ifDefault: configuration.transport)
        self.configuration = configuration
        let core = ApplicationCore(
            ClientSettings(configuration),
            authentication: .credential(
                ClientAuthenticator(
                    clientID: configuration.clientID, credential: configuration.credential, clock: configuration.clock,
                    random: configuration.random)))
        self.core = core
        clientCredentials = ClientCredentialsFlow(
            app: core, cache: configuration.cache, recent: RecentAppTokens(),
            regional: try configuration.azureRegion.map {
                try RegionalTokenService(
                    $0, authority: configuration.authority, environment: configuration.environment, log: core.log)
            })
    }

    private var cache: PartitionedTokenCache { configuration.cache }

    private var webSignIn: WebAppSignInFlow {
        WebAppSignInFlow(
            app: core, cache: cache,
            redirectURI: configuration.redirectURI.flatMap { $0.isEmpty ? nil : $0 })
    }

    // MARK: Client credentials

    /// An app-only token for one resource (the parameters' `scopes` is its `/.default`, e.g.
    /// `["https://graph.microsoft.com/.default"]`): from the cache while it has more than
    /// ``ConfidentialClientApplicationConfiguration/tokenExpirationBuffer`` left, else from the identity
    /// platform, one request for all concurrent callers.
    ///
    /// - Throws: ``MSALError``: `invalidParameter` for a multi-tenant authority; the server's errors
    ///   (`invalid_client` for a bad credential, `invalid_scope`…); transport errors.
    public func acquireTokenForClient(_ parameters: ClientCredentialParameters) async throws -> AppTokenResult {
        try await clientCredentials.run(
            scopes: parameters.scopes, forceRefresh: parameters.forceRefresh, claims: parameters.claims)
    }

    // MARK: Web apps

    /// Starts a user's sign-in to a web app: keep the returned flow where the browser cannot read it (the
    /// user's server-side session, or a cookie sealed with the server's key) and redirect the browser to its
    /// ``AuthorizationCodeFlow/authorizationURL``.
    ///
    /// - Throws: ``MSALError`` `invalidRedirectURI` without a redirect URI; discovery errors.
    public func startSignIn(_ parameters: WebSignInParameters) async throws -> AuthorizationCodeFlow {
        try await webSignIn.start(parameters)
    }

    /// Finishes a sign-in with the parameters of the redirect (its query, or the form it posted): checks
    /// `state`, redeems the code with the app's credential, validates the ID token, and caches the user's
    /// tokens in their partition.
    ///
    /// - Throws: ``MSALError``: `invalidState` when `state` differs or is missing, whatever else the redirect
    ///   carries (any page can send a browser to the redirect URI with `error=…`); with the right `state`, the
    ///   server's error when the redirect carries one (`userCanceled` for `access_denied`), `invalidIDToken`,
    ///   token errors.
    public func completeSignIn(_ flow: AuthorizationCodeFlow, response: [String: String]) async throws
        -> AuthenticationResult
    {
        try await webSignIn.complete(flow, response: response)
    }

    /// A signed-in user's token from their cache partition, refreshed with the refresh token (and the
    /// app's credential) when needed.
    ///
    /// - Throws: ``MSALError`` `interactionRequired` when the user must sign in again.
    public func acquireTokenSilently(_ parameters: SilentParameters) async throws -> AuthenticationResult {
        let partition = TokenCachePartition.user(homeAccountID: parameters.account.identifier)
        let partitioned = cache  // read once: the flow's lock takes this copy
        return try await SilentFlow(
            app: core, cache: partitioned.cache(for: partition), partition: (partitioned, partition)
        ).run(parameters)
    }

    /// The signed-in user with this ``Account/identifier`` (the home account id), if cached.
    public func account(identifier: String) async throws -> Account? {
        let endpoints = try await core.resolver.endpoints(for: configuration.authority)
        let tokens = cache.cache(for: .user(homeAccountID: identifier))
        return try await AccountBuilder(cache: tokens, clientID: configuration.clientID)
            .accounts(environments: endpoints.aliases)
            .first { $0.identifier.equalsIgnoringCase(identifier) }
    }

    /// Signs a user out of the web app: forgets their tokens and returns the identity platform's
    /// sign-out page, to redirect the browser to so the platform's session ends too.
    ///
    /// - Parameters:
    ///   - account: the signed-in user.
    ///   - postLogoutRedirectURI: where the platform sends the browser afterwards.
    /// - Returns: the sign-out URL, or `nil` when the authority has no end-session endpoint.
    public func signOut(_ account: Account, postLogoutRedirectURI: String? = nil) async throws -> URL? {
        try await signOut(accountIdentifier: account.identifier, postLogoutRedirectURI: postLogoutRedirectURI)
    }

    /// Signs a user out of the web app by their ``Account/identifier`` (the home account id a session keeps), even
    /// when the cache no longer holds their account: forgets whatever their partition holds and returns the identity
    /// platform's sign-out page. With `nil` it only returns the page.
    ///
    /// - Returns: the sign-out URL, or `nil` when the authority has no end-session endpoint.
    public func signOut(accountIdentifier: String?, postLogoutRedirectURI: String? = nil) async throws -> URL? {
        let endpoints = try await core.resolver.endpoints(for: configuration.authority)
        if let accountIdentifier {
            try await cache.cache(for: .user(homeAccountID: accountIdentifier)).removeAccount(
                homeAccountID: accountIdentifier, clientID: configuration.clientID, familyID: nil)
        }
        return endpoints.endSession.map {
            EndSessionRequest(clientID: configuration.clientID, postLogoutRedirectURI: postLogoutRedirectURI)
                .url(endpoint: $0)
        }
    }

    // MARK: Web APIs

    /// A token for a downstream API on behalf of the user whose token this API received
    /// (the parameters' `userAssertion`, the raw bearer token): cached under the token's hash, refreshed with the
    /// on-behalf-of refresh token, else exchanged again.
    ///
    /// - Throws: ``MSALError`` `interactionRequired` when the user must consent or satisfy a policy
    ///   (`consent_required`, `interaction_required`), carrying the server's claims in
    ///   ``MSALError/claimsChallenge`` for the API to send back to its client; `invalidParameter` for a
    ///   multi-tenant authority; the server's other errors (`invalid_grant` for an expired or foreign
    ///   assertion).
    public func acquireTokenOnBehalfOf(_ parameters: OnBehalfOfParameters) async throws -> AuthenticationResult {
        try await Telemetry.acquisition("msal.acquire_token_on_behalf_of", flow: "on_behalf_of") {
            try await OnBehalfOfFlow(app: core, cache: cache).run(
                userAssertion: parameters.userAssertion, scopes: parameters.scopes,
                forceRefresh: parameters.forceRefresh, claims: parameters.claims)
        }
    }
}
