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
        let partition = TokenCachePartition.onBehalfOf(userAssertion: userAssertion)
        let grant = OnBehalfOfGrant(
            app: app, lockedPartition: (cache, partition), partitionKey: partition.key,
            tokens: cache.cache(for: partition), endpoints: try await app.resolver.endpoints(for: authority),
            assertion: userAssertion, scopes: scopes, forceRefresh: forceRefresh, claims: claims)
        return try await app.acquisition.token(grant, bypassingCache: forceRefresh || claims != nil)
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

/// A downstream API's token from the incoming token's partition: its user's access token while usable, else their
/// on-behalf-of refresh token, else the incoming token exchanged again (at once for a claims request).
private struct OnBehalfOfGrant: CachedTokenGrant {
    static var flights: KeyPath<TokenAcquisition, SingleFlight<AuthenticationResult>> { \.userTokens }

    let app: ApplicationCore
    let lockedPartition: (PartitionedTokenCache, TokenCachePartition)?
    let partitionKey: String
    let tokens: TokenCache
    let endpoints: AuthorityEndpoints
    let assertion: String
    let scopes: [String]
    let forceRefresh: Bool
    let claims: String?

    /// One request per incoming token, scope set and claims at a time.
    var flightKey: String {
        "obo|\(partitionKey)|\(Scopes.lowercasedSet(scopes).sorted().joined(separator: " "))|\(claims ?? "")"
    }

    /// The partition's user and their tokens, once an exchange has cached them.
    private func userGrant() async throws -> RefreshTokenGrant? {
        guard
            let account = try await AccountBuilder(cache: tokens, clientID: app.settings.clientID)
                .accounts(environments: endpoints.aliases).first
        else { return nil }
        var parameters = SilentParameters(scopes: scopes, account: account, forceRefresh: forceRefresh)
        parameters.authority = app.settings.authority
        return RefreshTokenGrant(
            app: app, cache: tokens, lockedPartition: lockedPartition, parameters: parameters,
            requested: app.settings.authority, endpoints: endpoints)
    }

    nonisolated(nonsending) func cachedToken(_ freshness: TokenFreshness) async throws
        -> CachedToken<AuthenticationResult>?
    {
        try await userGrant()?.cachedToken(freshness)
    }

    func redeem() async throws -> AuthenticationResult {
        if claims == nil, let user = try await userGrant() {
            do {
                return try await user.redeem()
            } catch let error as MSALError where error.code == .interactionRequired {
                app.log.info("no usable on-behalf-of refresh token; exchanging the assertion again")
            }
        }
        return try await exchange()
    }

    private func exchange() async throws -> AuthenticationResult {
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
