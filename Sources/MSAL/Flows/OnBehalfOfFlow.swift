import Foundation

/// On-behalf-of: a web API trades the user's token it received for a token to a downstream API. Tokens
/// are cached in the partition of the incoming token's hash (MSAL.NET's `user_assertion_hash`): the
/// access token while it is good, then the refresh token, then a new exchange of the incoming token.
struct OnBehalfOfFlow: Sendable {
    let app: ApplicationCore
    let cache: PartitionedTokenCache

    func run(userAssertion: String, scopes: [String], forceRefresh: Bool, claims: String?) async throws
        -> AuthenticationResult
    {
        let authority = app.settings.authority
        try ClientCredentialsFlow.checkTenant(authority, for: "On-behalf-of requests")
        guard !userAssertion.isEmpty else {
            throw MSALError.internal(.invalidParameter, "The user assertion (the incoming access token) is empty.")
        }
        let endpoints = try await app.resolver.endpoints(for: authority)
        let partition = TokenCachePartition.onBehalfOf(userAssertion: userAssertion)
        let tokens = cache.cache(for: partition)
        let accounts = try await AccountBuilder(cache: tokens, clientID: app.settings.clientID)
            .accounts(environments: endpoints.aliases)
        if claims == nil, let account = accounts.first {
            var parameters = SilentParameters(scopes: scopes, account: account, forceRefresh: forceRefresh)
            parameters.authority = authority
            do {
                // Inside the on-behalf-of span.
                return try await SilentFlow(app: app, cache: tokens, partition: (cache, partition)).acquire(parameters)
            } catch let error as MSALError where error.code == .interactionRequired {
                app.log.info("no usable on-behalf-of token or refresh token; exchanging the assertion again")
            }
        }
        let exchange = OnBehalfOfExchange(
            app: app, lockedPartition: (cache, partition), partitionKey: partition.key, tokens: tokens,
            endpoints: endpoints, assertion: userAssertion, scopes: scopes, claims: claims)
        return try await app.acquisition.token(exchange, bypassingCache: true)
    }

    /// `consent_required` (as a suberror of `invalid_grant`) and `interaction_required` become
    /// ``MSALError/Code-swift.enum/interactionRequired`` with the server's claims, so the API can send the
    /// challenge back to its client.
    static func challenge(_ error: MSALError) -> MSALError {
        let needsUser =
            error.oauthError == "interaction_required" || error.oauthSubError == "consent_required"
            || error.oauthError == "consent_required"
        guard needsUser, error.code != .interactionRequired else { return error }
        return error.requiringInteraction(claims: nil)
    }
}

/// The incoming token exchanged for the downstream API's, once the partition's tokens could not serve: the
/// pipeline runs it bypassing the cache, so it is never asked for a cached token.
private struct OnBehalfOfExchange: CachedTokenGrant {
    static var flights: KeyPath<TokenAcquisition, SingleFlight<AuthenticationResult>> { \.userTokens }

    let app: ApplicationCore
    let lockedPartition: (PartitionedTokenCache, TokenCachePartition)?
    let partitionKey: String
    let tokens: TokenCache
    let endpoints: AuthorityEndpoints
    let assertion: String
    let scopes: [String]
    let claims: String?

    /// One exchange per incoming token, scope set and claims at a time.
    var flightKey: String {
        "obo|\(partitionKey)|\(Scopes.lowercasedSet(scopes).sorted().joined(separator: " "))|\(claims ?? "")"
    }

    func cachedToken(_ freshness: TokenFreshness) async throws -> CachedToken<AuthenticationResult>? { nil }

    func redeem() async throws -> AuthenticationResult {
        let endpoints = try await app.onlineEndpoints(endpoints)
        let correlationID = app.correlationIDs.next()
        let request = OnBehalfOfRequest(
            clientID: app.settings.clientID, assertion: assertion, scopes: scopes, claims: try app.claims(claims))
        app.log.info("exchanging a user token on behalf of its user", ["correlation_id": correlationID.uuidString])
        do {
            return try await app.redeem(
                request,
                .init(
                    endpoints: endpoints, requestedScopes: scopes, nonce: nil, expectedObjectID: nil,
                    grant: request.grantType, usedRefreshToken: nil, correlationID: correlationID,
                    cacheForAccount: { [tokens] _ in tokens },
                    extraFields: ["user_assertion_hash": .string(partitionKey)]))
        } catch let error as MSALError {
            throw OnBehalfOfFlow.challenge(error)
        }
    }
}
