import Foundation

/// App-only tokens (client credentials): the token last returned for the same scope list while it is usable
/// (``RecentAppTokens``), else the app-token partition of the cache, else the token endpoint (the regional one with an
/// ``AzureRegion``), through ``TokenAcquisition``.
struct ClientCredentialsFlow: Sendable {
    let app: ApplicationCore
    let cache: PartitionedTokenCache
    let recent: RecentAppTokens
    /// Where requests go with an ``AzureRegion``; `nil` for the global endpoint.
    let regional: RegionalTokenService?

    func run(scopes: [String], forceRefresh: Bool, claims: String?) async throws -> AppTokenResult {
        let bypassingCache = forceRefresh || claims != nil
        if !bypassingCache, let token = recent.token(for: scopes, app.acquisition.freshness()) {
            Telemetry.cacheLookup("client_credentials", hit: true)
            return token.fromCache(correlationID: app.correlationIDs.next())
        }
        let result = try await Telemetry.acquisition("msal.acquire_token_for_client", flow: "client_credentials") {
            try await acquire(scopes: scopes, bypassingCache: bypassingCache, claims: claims)
        }
        recent.remember(result, for: scopes, at: app.settings.clock.now())
        return result
    }

    private func acquire(scopes: [String], bypassingCache: Bool, claims: String?) async throws -> AppTokenResult {
        let authority = app.settings.authority
        try Self.checkTenant(authority, for: "App tokens")
        guard !scopes.isEmpty else {
            throw MSALError.internal(
                .invalidParameter, "Name the resource's scope, e.g. https://graph.microsoft.com/.default.")
        }
        let endpoints = try await app.resolver.endpoints(for: authority)
        let partition = TokenCachePartition.appTokens(clientID: app.settings.clientID, tenant: authority.tenant)
        let grant = ClientCredentialsGrant(
            app: app, lockedPartition: (cache, partition), tokens: cache.cache(for: partition), endpoints: endpoints,
            regional: regional, realm: endpoints.issuerTenant ?? authority.tenant, scopes: scopes, claims: claims)
        return try await app.acquisition.token(grant, bypassingCache: bypassingCache)
    }

    /// Client credentials and on-behalf-of go to one tenant: `common`, `organizations` and `consumers`
    /// name none (Entra answers AADSTS9001023 after a round trip).
    static func checkTenant(_ authority: Authority, for what: String) throws {
        guard authority.kind != .aad || !["common", "organizations", "consumers"].contains(authority.tenant) else {
            throw MSALError.internal(
                .invalidParameter,
                "\(what) need a tenant-specific authority (https://login.microsoftonline.com/{tenant}), not '\(authority.tenant)'."
            )
        }
    }
}

/// An app token from the app-token partition, or from the client credentials grant.
private struct ClientCredentialsGrant: CachedTokenGrant {
    static var flights: KeyPath<TokenAcquisition, SingleFlight<AppTokenResult>> { \.appTokens }

    let app: ApplicationCore
    let lockedPartition: (PartitionedTokenCache, TokenCachePartition)?
    let tokens: TokenCache
    let endpoints: AuthorityEndpoints
    let regional: RegionalTokenService?
    let realm: String
    let scopes: [String]
    let claims: String?

    /// One request per tenant, scope set and claims at a time.
    var flightKey: String {
        "\(realm.lowercased())|\(Scopes.lowercasedSet(scopes).sorted().joined(separator: " "))|\(claims ?? "")"
    }

    nonisolated(nonsending) func cachedToken(_ freshness: TokenFreshness) async throws -> CachedToken<AppTokenResult>? {
        guard
            let token = try await tokens.accessToken(
                homeAccountID: "", clientID: app.settings.clientID, realm: realm, environments: endpoints.aliases,
                scopes: scopes),
            freshness.isUsable(token)
        else { return nil }
        let result = AppTokenResult(
            accessToken: token.secret, expiresOn: token.expiresOn, scopes: scopes, tenantID: realm,
            correlationID: app.correlationIDs.next(), source: .cache, refreshOn: token.refreshOn)
        return CachedToken(token: result, refreshOn: token.refreshOn)
    }

    func redeem() async throws -> AppTokenResult {
        let endpoints = try await app.onlineEndpoints(endpoints)
        let correlationID = app.correlationIDs.next()
        let request = ClientCredentialsRequest(
            clientID: app.settings.clientID, scopes: scopes, claims: try app.claims(claims))
        app.log.info("requesting an app token", ["correlation_id": correlationID.uuidString, "tenant": realm])
        // The assertion's audience stays the global endpoint, the one the app is registered with (as MSAL Python
        // signs it); the cache entry's environment stays the authority's, so a token from a region is found again
        // without one.
        let target = await regional?.tokenEndpoint(replacing: endpoints.token) ?? endpoints.token
        let response = try await app.client.token(
            request, endpoint: target, correlationID: correlationID,
            authentication: try await app.authenticationFields(for: endpoints.token))
        let entry = try await TokenResponseHandler.storeAppToken(
            GrantedToken(response), granted: response.scope.map(Scopes.split) ?? scopes,
            clientID: app.settings.clientID, environment: endpoints.cacheEnvironment, realm: realm,
            at: app.settings.clock.now(), in: tokens)
        return AppTokenResult(
            accessToken: entry.secret, expiresOn: entry.expiresOn, scopes: scopes, tenantID: realm,
            correlationID: correlationID, source: .identityProvider, refreshOn: entry.refreshOn)
    }
}
