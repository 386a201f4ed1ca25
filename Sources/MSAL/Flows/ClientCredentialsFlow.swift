import Foundation

/// App-only tokens (client credentials): from the app-token partition of the cache until
/// ``PublicClientApplicationConfiguration/tokenExpirationBuffer`` before expiry, else from the token
/// endpoint, one request for all concurrent callers asking for the same scopes.
struct ClientCredentialsFlow: Sendable {
    let app: ApplicationCore
    let cache: PartitionedTokenCache
    let requests: SingleFlight<AppTokenResult>

    func run(scopes: [String], forceRefresh: Bool, claims: String?) async throws -> AppTokenResult {
        let authority = app.configuration.authority
        try Self.checkTenant(authority, for: "App tokens")
        guard !scopes.isEmpty else {
            throw MSALError.internal(
                .invalidParameter, "Name the resource's scope, e.g. https://graph.microsoft.com/.default.")
        }
        let endpoints = try await app.resolver.endpoints(for: authority)
        let partition = TokenCachePartition.appTokens(clientID: app.configuration.clientID, tenant: authority.tenant)
        let tokens = cache.cache(for: partition)
        let realm = endpoints.issuerTenant ?? authority.tenant
        let useCache = !forceRefresh && claims == nil
        if useCache, let cached = try await cached(tokens, endpoints: endpoints, realm: realm, scopes: scopes) {
            guard let refreshOn = cached.refreshOn, refreshOn <= app.configuration.clock.now() else {
                return cached.result
            }
            do {
                return try await request(partition, tokens, endpoints, realm, scopes, forceRefresh: true, claims: nil)
            } catch let error as MSALError {
                app.log.warning(
                    "proactive refresh of an app token failed; using the cached one", ["error": "\(error.code)"])
                return cached.result
            }
        }
        return try await request(
            partition, tokens, endpoints, realm, scopes, forceRefresh: forceRefresh, claims: claims)
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

    private func cached(
        _ tokens: TokenCache, endpoints: AuthorityEndpoints, realm: String, scopes: [String]
    ) async throws -> (result: AppTokenResult, refreshOn: Date?)? {
        let now = app.configuration.clock.now()
        guard
            let token = try await tokens.accessToken(
                homeAccountID: "", clientID: app.configuration.clientID, realm: realm,
                environments: endpoints.aliases, scopes: scopes),
            token.expiresOn > now.addingTimeInterval(app.configuration.tokenExpirationBuffer),
            token.cachedAt <= now.addingTimeInterval(IDTokenValidator.skew)
        else { return nil }
        let result = AppTokenResult(
            accessToken: token.secret, expiresOn: token.expiresOn, scopes: scopes, tenantID: realm,
            correlationID: app.correlationIDs.next(), source: .cache, refreshOn: token.refreshOn)
        return (result, token.refreshOn)
    }

    /// One request per scope set (and claims) at a time in this process, and, with a shared store, one
    /// per partition across processes (``PartitionedTokenCache/whileRefreshing(_:_:)``). A caller that
    /// waited for an earlier request finds its token in the cache, as does a process that waited for another.
    private func request(
        _ partition: TokenCachePartition, _ tokens: TokenCache, _ endpoints: AuthorityEndpoints, _ realm: String,
        _ scopes: [String], forceRefresh: Bool, claims: String?
    ) async throws -> AppTokenResult {
        let sorted = Scopes.lowercasedSet(scopes).sorted().joined(separator: " ")
        let key = "\(realm.lowercased())|\(sorted)|\(claims ?? "")|\(forceRefresh)"
        return try await requests.run(key) {
            try await cache.whileRefreshing(partition) {
                try await refresh(tokens, endpoints, realm, scopes, forceRefresh: forceRefresh, claims: claims)
            }
        }
    }

    private func refresh(
        _ tokens: TokenCache, _ endpoints: AuthorityEndpoints, _ realm: String, _ scopes: [String],
        forceRefresh: Bool, claims: String?
    ) async throws -> AppTokenResult {
        if !forceRefresh, claims == nil,
            let cached = try await cached(tokens, endpoints: endpoints, realm: realm, scopes: scopes),
            cached.refreshOn.map({ $0 > app.configuration.clock.now() }) ?? true
        {
            return cached.result
        }
        let current =
            endpoints.discoveredOnline
            ? endpoints : try await app.resolver.endpoints(for: endpoints.authority, online: true)
        return try await redeem(tokens, current, realm, scopes, claims: claims)
    }

    private func redeem(
        _ tokens: TokenCache, _ endpoints: AuthorityEndpoints, _ realm: String, _ scopes: [String], claims: String?
    ) async throws -> AppTokenResult {
        let config = app.configuration
        let correlationID = app.correlationIDs.next()
        let request = ClientCredentialsRequest(
            clientID: config.clientID, scopes: scopes,
            claims: try ClaimsRequest.merged(claims, capabilities: config.clientCapabilities))
        app.log.info("requesting an app token", ["correlation_id": correlationID.uuidString, "tenant": realm])
        let response = try await app.client.token(
            request, endpoint: endpoints.token, correlationID: correlationID,
            authentication: try await app.authentication(for: endpoints.token))
        let now = config.clock.now()
        let granted = response.scope.map { $0.split(separator: " ").map(String.init) } ?? scopes
        let entry = AccessTokenEntry(
            homeAccountID: "", environment: endpoints.cacheEnvironment, clientID: config.clientID, realm: realm,
            target: granted.sorted().joined(separator: " "), secret: response.accessToken, cachedAt: now,
            expiresOn: now.addingTimeInterval(TimeInterval(response.expiresIn)),
            extendedExpiresOn: now.addingTimeInterval(TimeInterval(response.extExpiresIn ?? response.expiresIn)),
            refreshOn: response.refreshIn.map { now.addingTimeInterval(TimeInterval($0)) })
        try await tokens.store(CacheArtefacts(accessToken: entry), replacingRefreshToken: nil)
        return AppTokenResult(
            accessToken: response.accessToken, expiresOn: entry.expiresOn, scopes: scopes, tenantID: realm,
            correlationID: correlationID, source: .identityProvider, refreshOn: entry.refreshOn)
    }
}
