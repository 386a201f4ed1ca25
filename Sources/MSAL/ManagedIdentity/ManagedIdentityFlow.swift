import Foundation

/// A managed identity token for one resource: from the identity's cache partition until the expiry buffer, else
/// from the source, one request for all concurrent callers; renewed ahead of time at `refresh_in` (half the
/// lifetime of tokens that live more than two hours, as MSAL does), keeping the cached token when that fails.
struct ManagedIdentityFlow: Sendable {
    /// The realm and environment MSAL Go and MSAL.NET file managed identity tokens under.
    static let realm = "managed_identity"
    static let environment = "login.microsoftonline.com"
    /// Tokens that live longer than this are renewed at half their lifetime.
    static let longLived: TimeInterval = 7200

    let configuration: ManagedIdentityApplicationConfiguration
    let endpoint: ManagedIdentityEndpoint
    let requests: SingleFlight<AppTokenResult>
    let correlationIDs: CorrelationIDs
    let log: PrivacyLogger

    private var identity: ManagedIdentity { configuration.identity }
    private var tokens: TokenCache {
        configuration.cache.cache(for: .appTokens(clientID: identity.cacheID, tenant: Self.realm))
    }

    func run(resource: String, forceRefresh: Bool, claims: String?) async throws -> AppTokenResult {
        let cached = try await cachedToken(resource)
        if !forceRefresh, claims == nil, let cached, usable(cached) {
            guard let refreshOn = cached.refreshOn, refreshOn <= configuration.clock.now() else {
                return result(cached, resource, source: .cache, correlationID: correlationIDs.next())
            }
            do {
                return try await request(resource, key: "refresh", revoked: nil)
            } catch let error as MSALError {
                log.warning(
                    "renewing a managed identity token failed; using the cached one", ["error": "\(error.code)"])
                return result(cached, resource, source: .cache, correlationID: correlationIDs.next())
            }
        }
        let revoked = claims == nil ? nil : cached?.secret
        return try await request(resource, key: "\(forceRefresh)|\(claims ?? "")", revoked: revoked)
    }

    private func usable(_ token: AccessTokenEntry) -> Bool {
        let now = configuration.clock.now()
        return token.expiresOn > now.addingTimeInterval(configuration.tokenExpirationBuffer)
            && token.cachedAt <= now.addingTimeInterval(IDTokenValidator.skew)
    }

    private func cachedToken(_ resource: String) async throws -> AccessTokenEntry? {
        try await tokens.accessToken(
            homeAccountID: "", clientID: identity.cacheID, realm: Self.realm, environments: [Self.environment],
            scopes: [resource])
    }

    /// One request per resource at a time in this process; with a shared store, one per identity across processes.
    private func request(_ resource: String, key: String, revoked: String?) async throws -> AppTokenResult {
        try await requests.run("\(resource)|\(key)") {
            try await configuration.cache.whileRefreshing(.appTokens(clientID: identity.cacheID, tenant: Self.realm)) {
                try await fetch(resource, revoked: revoked)
            }
        }
    }

    private func fetch(_ resource: String, revoked: String?) async throws -> AppTokenResult {
        let correlationID = correlationIDs.next()
        let (token, now) = try await ManagedIdentityClient(endpoint: endpoint, configuration: configuration, log: log)
            .token(for: resource, revokedToken: revoked, correlationID: correlationID)
        let refreshIn = token.refreshIn ?? (token.expiresIn > Self.longLived ? token.expiresIn / 2 : nil)
        let entry = AccessTokenEntry(
            homeAccountID: "", environment: Self.environment, clientID: identity.cacheID, realm: Self.realm,
            target: resource, secret: token.accessToken, cachedAt: now,
            expiresOn: now.addingTimeInterval(token.expiresIn),
            extendedExpiresOn: now.addingTimeInterval(token.expiresIn),
            refreshOn: refreshIn.map { now.addingTimeInterval($0) })
        try await tokens.store(CacheArtefacts(accessToken: entry), replacingRefreshToken: nil)
        return result(entry, resource, source: .identityProvider, correlationID: correlationID)
    }

    private func result(
        _ entry: AccessTokenEntry, _ resource: String, source: AuthenticationResult.Source, correlationID: UUID
    ) -> AppTokenResult {
        let tenant = (try? JWT(entry.secret))?.claims["tid"] as? String
        return AppTokenResult(
            accessToken: entry.secret, expiresOn: entry.expiresOn, scopes: [resource],
            tenantID: tenant ?? Self.realm, correlationID: correlationID, source: source, refreshOn: entry.refreshOn)
    }
}
