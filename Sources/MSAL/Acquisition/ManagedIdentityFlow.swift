import Foundation

/// A managed identity token for one resource, through ``TokenAcquisition``: from the identity's cache partition
/// while usable, else from the source (``ManagedIdentityClient``); renewed ahead of time at `refresh_in` (half the
/// lifetime of tokens that live more than two hours, as MSAL does).
struct ManagedIdentityFlow: Sendable {
    /// The realm and environment MSAL Go and MSAL.NET file managed identity tokens under.
    static let realm = "managed_identity"
    static let environment = "login.microsoftonline.com"
    /// Tokens that live longer than this are renewed at half their lifetime.
    static let longLived: TimeInterval = 7200

    let configuration: ManagedIdentityApplicationConfiguration
    let client: ManagedIdentityClient
    let acquisition: TokenAcquisition
    let correlationIDs: CorrelationIDs

    func run(resource: String, forceRefresh: Bool, claims: String?) async throws -> AppTokenResult {
        let partition = TokenCachePartition.appTokens(clientID: configuration.identity.cacheID, tenant: Self.realm)
        var grant = ManagedIdentityGrant(
            client: client, cacheID: configuration.identity.cacheID, lockedPartition: (configuration.cache, partition),
            tokens: configuration.cache.cache(for: partition), resource: resource, claims: claims, revokedToken: nil,
            correlationIDs: correlationIDs, clock: configuration.clock)
        if claims != nil {
            // A claims challenge revokes the cached token; Service Fabric is told which one.
            grant.revokedToken = try await grant.storedToken()?.secret
        }
        return try await acquisition.token(grant, bypassingCache: forceRefresh || claims != nil)
    }
}

/// A managed identity's token from its partition, or from its source.
private struct ManagedIdentityGrant: CachedTokenGrant {
    static var flights: KeyPath<TokenAcquisition, SingleFlight<AppTokenResult>> { \.appTokens }

    let client: ManagedIdentityClient
    /// The identity's client id in the cache.
    let cacheID: String
    let lockedPartition: (PartitionedTokenCache, TokenCachePartition)?
    let tokens: TokenCache
    let resource: String
    let claims: String?
    var revokedToken: String?
    let correlationIDs: CorrelationIDs
    let clock: any TimeSource

    /// One request per resource and claims at a time.
    var flightKey: String { "\(resource)|\(claims ?? "")" }

    /// The token stored for the resource, usable or not.
    func storedToken() async throws -> AccessTokenEntry? {
        try await tokens.accessToken(
            homeAccountID: "", clientID: cacheID, realm: ManagedIdentityFlow.realm,
            environments: [ManagedIdentityFlow.environment], scopes: [resource])
    }

    nonisolated(nonsending) func cachedToken(_ freshness: TokenFreshness) async throws -> CachedToken<AppTokenResult>? {
        guard let token = try await storedToken(), freshness.isUsable(token) else { return nil }
        return CachedToken(
            token: result(token, source: .cache, correlationID: correlationIDs.next()), refreshOn: token.refreshOn)
    }

    func redeem() async throws -> AppTokenResult {
        let correlationID = correlationIDs.next()
        let (token, now) = try await client.token(
            for: resource, revokedToken: revokedToken, correlationID: correlationID)
        let granted = GrantedToken(
            accessToken: token.accessToken, expiresIn: token.expiresIn, extendedExpiresIn: token.expiresIn,
            refreshIn: token.refreshIn
                ?? (token.expiresIn > ManagedIdentityFlow.longLived ? token.expiresIn / 2 : nil))
        let entry = try await TokenResponseHandler.storeAppToken(
            granted, granted: [resource], clientID: cacheID, environment: ManagedIdentityFlow.environment,
            realm: ManagedIdentityFlow.realm, at: now, in: tokens)
        return result(entry, source: .identityProvider, correlationID: correlationID)
    }

    private func result(_ entry: AccessTokenEntry, source: AuthenticationResult.Source, correlationID: UUID)
        -> AppTokenResult
    {
        let tenant = (try? JWT(entry.secret))?.claims["tid"] as? String
        return AppTokenResult(
            accessToken: entry.secret, expiresOn: entry.expiresOn, scopes: [resource],
            tenantID: tenant ?? ManagedIdentityFlow.realm, correlationID: correlationID, source: source,
            refreshOn: entry.refreshOn)
    }
}
