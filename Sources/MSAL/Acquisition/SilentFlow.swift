import Foundation

/// Tokens without user interaction: the cached access token while it is usable, else the refresh token (the
/// family's for FOCI apps), through ``TokenAcquisition``.
struct SilentFlow: Sendable {
    let app: ApplicationCore
    /// The cache the account's tokens are in: a public client's, or a confidential client's partition.
    let cache: TokenCache
    /// The partition ``cache`` is, whose refresh lock a refresh holds; `nil` for a public client's cache.
    let partition: (PartitionedTokenCache, TokenCachePartition)?

    /// The token, inside an `msal.acquire_token_silent` span that says whether the cache answered.
    nonisolated(nonsending) func run(_ parameters: SilentParameters) async throws -> AuthenticationResult {
        try await Telemetry.acquisition("msal.acquire_token_silent", flow: "silent") { try await acquire(parameters) }
    }

    /// The token, with no span of its own: for flows that answer from a partition inside their own span.
    nonisolated(nonsending) func acquire(_ parameters: SilentParameters) async throws -> AuthenticationResult {
        let requested = app.settings.authority(parameters.authority)
        let homeTenant = parameters.account.homeAccountID.tenantID
        let authority = requested.isMultiTenant ? requested.replacingTenant(homeTenant) : requested
        let endpoints = try await app.resolver.endpoints(for: authority)
        // The lookup reads the caller's values in place; the grant (a copy of them) is made only to go online.
        return try await app.acquisition.token(
            bypassingCache: parameters.forceRefresh || parameters.claims != nil,
            cached: {
                try await RefreshTokenGrant.cachedToken(
                    $0, app: app, cache: cache, parameters: parameters, requested: requested, endpoints: endpoints)
            },
            grant: {
                RefreshTokenGrant(
                    app: app, cache: cache, lockedPartition: partition, parameters: parameters, requested: requested,
                    endpoints: endpoints)
            })
    }
}

/// A user's token from the cache, or from the refresh token.
///
/// A new access token through `common` or `organizations` is filed under that segment
/// (``Authority/accessTokenRealm(tenant:)``).
struct RefreshTokenGrant: CachedTokenGrant {
    static var flights: KeyPath<TokenAcquisition, SingleFlight<AuthenticationResult>> { \.userTokens }

    let app: ApplicationCore
    let cache: TokenCache
    let lockedPartition: (PartitionedTokenCache, TokenCachePartition)?
    let parameters: SilentParameters
    /// The authority the caller named.
    let requested: Authority
    let endpoints: AuthorityEndpoints

    /// One refresh per account, tenant, scope set and claims at a time.
    var flightKey: String {
        let scopes = Scopes.lowercasedSet(parameters.scopes).sorted().joined(separator: " ")
        let realm = SilentFlow.realm(of: endpoints, account: parameters.account)
        return
            "\(parameters.account.identifier.lowercased())|\(realm.lowercased())|\(scopes)|\(parameters.claims ?? "")"
    }

    nonisolated(nonsending) func cachedToken(_ freshness: TokenFreshness) async throws
        -> CachedToken<AuthenticationResult>?
    {
        try await Self.cachedToken(
            freshness, app: app, cache: cache, parameters: parameters, requested: requested, endpoints: endpoints)
    }

    /// The account's usable token in `cache`, as a result.
    nonisolated(nonsending) static func cachedToken(
        _ freshness: TokenFreshness, app: ApplicationCore, cache: TokenCache, parameters: SilentParameters,
        requested: Authority, endpoints: AuthorityEndpoints
    ) async throws -> CachedToken<AuthenticationResult>? {
        let realm = SilentFlow.realm(of: endpoints, account: parameters.account)
        let homeTenant = parameters.account.homeAccountID.tenantID
        guard
            let (token, idToken, grantedScopes) = try await cache.cachedTokens(
                homeAccountID: parameters.account.identifier, clientID: app.settings.clientID,
                realm: requested.accessTokenRealm(tenant: realm),
                otherRealms: {
                    SilentFlow.otherAccessTokenRealms(requested: requested, tenant: realm, homeTenant: homeTenant)
                }, tenant: realm,
                environment: endpoints.cacheEnvironment, environments: endpoints.aliases, scopes: parameters.scopes,
                expiringAfter: freshness.usableExpiry),
            freshness.isUsable(token), let idToken,
            let cached = try await cachedResult(
                token, idToken: idToken, scopes: grantedScopes, realm: realm, app: app, cache: cache,
                parameters: parameters, endpoints: endpoints)
        else { return nil }
        app.log.debug("access token from the cache", ["realm": realm], pii: ["username": parameters.account.username])
        return CachedToken(token: cached, refreshOn: token.refreshOn)
    }

    /// The cached token as a result. The caller's account is reused when it has a profile for the
    /// realm (no rebuilding on the hot path); otherwise the account is built from the cache.
    private nonisolated(nonsending) static func cachedResult(
        _ token: AccessTokenEntry, idToken: IDTokenEntry, scopes: [String], realm: String, app: ApplicationCore,
        cache: TokenCache, parameters: SilentParameters, endpoints: AuthorityEndpoints
    ) async throws -> AuthenticationResult? {
        let matchesRealm = { (profile: TenantProfile) in
            profile.tenantID == realm || profile.tenantID.lowercased() == realm.lowercased()
        }
        let given = parameters.account
        let account =
            given.tenantProfiles.contains(where: matchesRealm)
            ? given
            : try await AccountBuilder(cache: cache, clientID: app.settings.clientID)
                .account(homeAccountID: token.homeAccountID, environments: endpoints.aliases)
        guard let profile = account.tenantProfiles.first(where: matchesRealm) else { return nil }
        return AuthenticationResult(
            accessToken: token.secret, expiresOn: token.expiresOn, scopes: scopes,
            idToken: idToken.secret, account: account, tenantProfile: profile,
            correlationID: parameters.correlationID ?? app.correlationIDs.next(), source: .cache)
    }

    func redeem() async throws -> AuthenticationResult {
        let endpoints = try await app.onlineEndpoints(endpoints)
        let realm = SilentFlow.realm(of: endpoints, account: parameters.account)
        let home = parameters.account.identifier
        let clientID = app.settings.clientID
        let candidates = try await cache.refreshTokens(
            homeAccountID: home, environments: endpoints.aliases, clientID: clientID)
        guard !candidates.isEmpty else {
            throw MSALError(
                .interactionRequired, "No refresh token for this account in the cache; sign in interactively.")
        }
        app.log.info(
            "redeeming a refresh token", ["realm": realm, "candidates": "\(candidates.count)"],
            pii: ["username": parameters.account.username])
        let previous = try await cache.idToken(
            homeAccountID: home, clientID: clientID, realm: realm, environments: endpoints.aliases)
        let expectedObjectID = previous.flatMap { try? JWT($0.secret) }.flatMap { $0.string("oid") ?? $0.string("sub") }
        let claims = try app.claims(parameters.claims)
        let correlationID = parameters.correlationID ?? app.correlationIDs.next()
        var lastError: MSALError?
        for candidate in candidates {
            let request = RefreshTokenRequest(
                clientID: clientID, refreshToken: candidate.secret, scopes: parameters.scopes, claims: claims)
            do {
                return try await app.redeem(
                    request,
                    .init(
                        endpoints: endpoints, requestedScopes: parameters.scopes, nonce: nil,
                        expectedObjectID: expectedObjectID,
                        grant: request.grantType, usedRefreshToken: candidate.secret, correlationID: correlationID,
                        accessTokenRealm: requested.accessTokenRealm(tenant: realm),
                        cacheForAccount: { [cache] _ in cache },
                        extraQueryParameters: parameters.extraQueryParameters, refreshedAccount: parameters.account))
            } catch let error as MSALError where error.oauthError != nil {
                lastError = error
            }
        }
        throw SilentFlow.silentError(lastError!, claims: parameters.claims)
    }
}

extension SilentFlow {
    /// The tenant the tokens are stored under: the issuer's tenant, or the account's home tenant for
    /// `{tenantid}` issuers.
    static func realm(of endpoints: AuthorityEndpoints, account: Account) -> String {
        endpoints.issuerTenant ?? account.homeAccountID.tenantID
    }

    /// Where else an access token for this request may be filed, after the realm new tokens go to (the
    /// multi-tenant segment the caller named, else the tenant).
    ///
    /// MSAL Python files and looks up tokens under the authority's tenant segment, so through `common`
    /// or `organizations` under that word, and MSAL.NET under the tenant: a multi-tenant request also
    /// takes the tenant's, then the other word's. Such tokens come from the account's home tenant, so a
    /// request naming the home tenant takes them too.
    static func otherAccessTokenRealms(requested: Authority, tenant: String, homeTenant: String) -> [String] {
        if requested.isMultiTenant {
            switch requested.tenant {
            case "organizations": return [tenant, "common"]
            case "common": return [tenant, "organizations"]
            default: return [tenant]
            }
        }
        guard requested.kind == .aad, tenant.lowercased() == homeTenant.lowercased() else { return [] }
        return ["organizations", "common"]
    }

    /// MSAL's rule: any OAuth error from a refresh means the user must interact, except
    /// `invalid_scope`, `invalid_client` and protection-policy errors; the details are kept.
    static func silentError(_ error: MSALError, claims: String?) -> MSALError {
        let keep =
            ["invalid_scope", "invalid_client"].contains(error.oauthError ?? "")
            || error.code == .serverProtectionPoliciesRequired
            || error.code == .serverError
        return keep ? error : error.requiringInteraction(claims: claims)
    }
}
