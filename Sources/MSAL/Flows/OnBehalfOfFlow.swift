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
        let authority = app.configuration.authority
        try ClientCredentialsFlow.checkTenant(authority, for: "On-behalf-of requests")
        guard !userAssertion.isEmpty else {
            throw MSALError.internal(.invalidParameter, "The user assertion (the incoming access token) is empty.")
        }
        let endpoints = try await app.resolver.endpoints(for: authority)
        let partition = TokenCachePartition.onBehalfOf(userAssertion: userAssertion)
        let tokens = cache.cache(for: partition)
        let silent = SilentFlow(app: app, cache: tokens)
        let accounts = try await AccountBuilder(cache: tokens, clientID: app.configuration.clientID)
            .accounts(environments: endpoints.aliases)
        if claims == nil, let account = accounts.first {
            var parameters = SilentParameters(scopes: scopes, account: account, forceRefresh: forceRefresh)
            parameters.authority = authority
            do {
                return try await silent.acquire(parameters)  // inside the on-behalf-of span
            } catch let error as MSALError where error.code == .interactionRequired {
                app.log.info("no usable on-behalf-of token or refresh token; exchanging the assertion again")
            }
        }
        return try await exchange(
            userAssertion, partition: partition, tokens: tokens, endpoints: endpoints, scopes: scopes, claims: claims)
    }

    private func exchange(
        _ assertion: String, partition: TokenCachePartition, tokens: TokenCache, endpoints: AuthorityEndpoints,
        scopes: [String], claims: String?
    ) async throws -> AuthenticationResult {
        let config = app.configuration
        let sorted = Scopes.lowercasedSet(scopes).sorted().joined(separator: " ")
        return try await app.refreshes.run("obo|\(partition.key)|\(sorted)|\(claims ?? "")") {
            let current =
                endpoints.discoveredOnline
                ? endpoints : try await app.resolver.endpoints(for: endpoints.authority, online: true)
            let correlationID = app.correlationIDs.next()
            let request = OnBehalfOfRequest(
                clientID: config.clientID, assertion: assertion, scopes: scopes,
                claims: try ClaimsRequest.merged(claims, capabilities: config.clientCapabilities))
            app.log.info("exchanging a user token on behalf of its user", ["correlation_id": correlationID.uuidString])
            do {
                let response = try await app.client.token(
                    request, endpoint: current.token, correlationID: correlationID,
                    authentication: try await app.authentication(for: current.token))
                return try await app.responseHandler.handle(
                    response,
                    .init(
                        endpoints: current, requestedScopes: scopes, nonce: nil, expectedObjectID: nil,
                        grant: request.grantType, usedRefreshToken: nil, correlationID: correlationID,
                        cacheForAccount: { _ in tokens },
                        extraFields: ["user_assertion_hash": .string(partition.key)]))
            } catch let error as MSALError {
                throw Self.challenge(error)
            }
        }
    }

    /// `consent_required` (as a suberror of `invalid_grant`) and `interaction_required` become
    /// ``MSALError/Code-swift.enum/interactionRequired`` with the server's claims, so the API can send the
    /// challenge back to its client.
    static func challenge(_ error: MSALError) -> MSALError {
        let needsUser =
            error.oauthError == "interaction_required" || error.oauthSubError == "consent_required"
            || error.oauthError == "consent_required"
        guard needsUser, error.code != .interactionRequired else { return error }
        var wrapped = MSALError(
            .interactionRequired, internalCode: error.internalCode, error.message, oauthError: error.oauthError,
            oauthSubError: error.oauthSubError, stsErrorCodes: error.stsErrorCodes, httpStatus: error.httpStatus,
            correlationID: error.correlationID)
        wrapped.claimsChallenge = error.claimsChallenge
        return wrapped
    }
}
