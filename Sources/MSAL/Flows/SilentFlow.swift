import Foundation

/// Tokens without user interaction: the cached access token when it is still good, else the refresh
/// token (the family's for FOCI apps), shared by concurrent callers.
struct SilentFlow: Sendable {
    let app: ApplicationCore
    /// The cache the account's tokens are in: the app's, or a confidential client's user partition.
    let cache: TokenCache

    init(app: ApplicationCore, cache: TokenCache? = nil) {
        self.app = app
        self.cache = cache ?? app.cache
    }

    /// The token, inside an `msal.acquire_token_silent` span that says whether the cache answered.
    func run(_ parameters: SilentParameters) async throws -> AuthenticationResult {
        try await Telemetry.acquisition("msal.acquire_token_silent", flow: "silent") { try await acquire(parameters) }
    }

    /// The token, with no span of its own: for flows that answer from a partition inside their own span.
    func acquire(_ parameters: SilentParameters) async throws -> AuthenticationResult {
        let requested = parameters.authority ?? app.configuration.authority
        let homeTenant = parameters.account.homeAccountID.tenantID
        let authority = requested.isMultiTenant ? requested.replacingTenant(homeTenant) : requested
        let endpoints = try await app.resolver.endpoints(for: authority)
        let realm = Self.realm(of: endpoints, account: parameters.account)
        let now = app.configuration.clock.now()
        if !parameters.forceRefresh, parameters.claims == nil,
            let (token, idToken, grantedScopes) = try await cache.cachedTokens(
                homeAccountID: parameters.account.identifier, clientID: app.configuration.clientID,
                realm: requested.accessTokenRealm(tenant: realm),
                otherRealms: {
                    Self.otherAccessTokenRealms(requested: requested, tenant: realm, homeTenant: homeTenant)
                }, tenant: realm,
                environment: endpoints.cacheEnvironment, environments: endpoints.aliases, scopes: parameters.scopes,
                expiringAfter: now.addingTimeInterval(app.configuration.tokenExpirationBuffer)),
            token.cachedAt <= now.addingTimeInterval(IDTokenValidator.skew),
            let idToken,
            let cached = try await cachedResult(
                token, idToken: idToken, scopes: grantedScopes, account: parameters.account,
                endpoints: endpoints, realm: realm, correlationID: parameters.correlationID)
        {
            app.log.debug(
                "access token from the cache", ["realm": realm], pii: ["username": parameters.account.username])
            guard let refreshOn = token.refreshOn, refreshOn <= now else { return cached }
            do {
                return try await refresh(parameters, endpoints: endpoints, realm: realm, through: requested)
            } catch let error as MSALError where error.code != .serverDeclinedScopes {
                app.log.warning("proactive refresh failed; using the cached token", ["error": "\(error.code)"])
                return cached
            }
        }
        return try await refresh(parameters, endpoints: endpoints, realm: realm, through: requested)
    }

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

    /// The cached token as a result. The caller's account is reused when it has a profile for the
    /// realm (no rebuilding on the hot path); otherwise the account is built from the cache.
    private func cachedResult(
        _ token: AccessTokenEntry, idToken: IDTokenEntry, scopes: [String], account given: Account,
        endpoints: AuthorityEndpoints, realm: String, correlationID: UUID?
    ) async throws -> AuthenticationResult? {
        let matchesRealm = { (profile: TenantProfile) in
            profile.tenantID == realm || profile.tenantID.lowercased() == realm.lowercased()
        }
        let account =
            given.tenantProfiles.contains(where: matchesRealm)
            ? given
            : try await AccountBuilder(cache: cache, clientID: app.configuration.clientID)
                .account(homeAccountID: token.homeAccountID, environments: endpoints.aliases)
        guard let profile = account.tenantProfiles.first(where: matchesRealm) else { return nil }
        return AuthenticationResult(
            accessToken: token.secret, expiresOn: token.expiresOn, scopes: scopes,
            idToken: idToken.secret, account: account, tenantProfile: profile,
            correlationID: correlationID ?? app.correlationIDs.next(), source: .cache)
    }

    /// One refresh per account, tenant, scope set and claims at a time; concurrent callers share it.
    /// Endpoints read from the metadata file are discovered again first: the refresh goes online anyway.
    ///
    /// - Parameter requested: the authority the caller named; through `common` or `organizations` the new
    ///   access token is filed under that segment (``Authority/accessTokenRealm(tenant:)``).
    private func refresh(
        _ parameters: SilentParameters, endpoints: AuthorityEndpoints, realm: String,
        through requested: Authority
    ) async throws -> AuthenticationResult {
        if !endpoints.discoveredOnline {
            let current = try await app.resolver.endpoints(for: endpoints.authority, online: true)
            return try await refresh(
                parameters, endpoints: current, realm: Self.realm(of: current, account: parameters.account),
                through: requested)
        }
        let scopes = Scopes.lowercasedSet(parameters.scopes).sorted().joined(separator: " ")
        let key =
            "\(parameters.account.identifier.lowercased())|\(realm.lowercased())|\(scopes)|\(parameters.claims ?? "")"
        return try await app.refreshes.run(key) {
            try await redeemRefreshToken(
                parameters, endpoints: endpoints, realm: realm,
                accessTokenRealm: requested.accessTokenRealm(tenant: realm))
        }
    }

    private func redeemRefreshToken(
        _ parameters: SilentParameters, endpoints: AuthorityEndpoints, realm: String,
        accessTokenRealm: String
    ) async throws -> AuthenticationResult {
        let config = app.configuration
        let home = parameters.account.identifier
        let candidates = try await cache.refreshTokens(
            homeAccountID: home, environments: endpoints.aliases, clientID: config.clientID)
        guard !candidates.isEmpty else {
            throw MSALError(
                .interactionRequired, "No refresh token for this account in the cache; sign in interactively.")
        }
        app.log.info(
            "redeeming a refresh token", ["realm": realm, "candidates": "\(candidates.count)"],
            pii: ["username": parameters.account.username])
        let previous = try await cache.idToken(
            homeAccountID: home, clientID: config.clientID, realm: realm, environments: endpoints.aliases)
        let expectedObjectID = previous.flatMap { try? JWT($0.secret) }.flatMap { $0.string("oid") ?? $0.string("sub") }
        let claims = try ClaimsRequest.merged(parameters.claims, capabilities: config.clientCapabilities)
        let correlationID = parameters.correlationID ?? app.correlationIDs.next()
        var lastError: MSALError?
        for candidate in candidates {
            let request = RefreshTokenRequest(
                clientID: config.clientID, refreshToken: candidate.secret, scopes: parameters.scopes, claims: claims)
            do {
                let tokens = try await app.client.token(
                    request, endpoint: endpoints.token, correlationID: correlationID,
                    authentication: try await app.authentication(for: endpoints.token))
                return try await app.responseHandler.handle(
                    tokens,
                    .init(
                        endpoints: endpoints, requestedScopes: parameters.scopes, nonce: nil,
                        expectedObjectID: expectedObjectID,
                        grant: request.grantType, usedRefreshToken: candidate.secret, correlationID: correlationID,
                        accessTokenRealm: accessTokenRealm, cacheForAccount: { [cache] _ in cache }))
            } catch let error as MSALError where error.oauthError != nil {
                lastError = error
            }
        }
        throw Self.silentError(lastError!, claims: parameters.claims)
    }

    /// MSAL's rule: any OAuth error from a refresh means the user must interact, except
    /// `invalid_scope`, `invalid_client` and protection-policy errors; the details are kept.
    static func silentError(_ error: MSALError, claims: String?) -> MSALError {
        let keep =
            ["invalid_scope", "invalid_client"].contains(error.oauthError ?? "")
            || error.code == .serverProtectionPoliciesRequired
            || error.code == .serverError
        guard !keep else { return error }
        var wrapped = MSALError(
            .interactionRequired, internalCode: error.internalCode, error.message, oauthError: error.oauthError,
            oauthSubError: error.oauthSubError, stsErrorCodes: error.stsErrorCodes, httpStatus: error.httpStatus,
            correlationID: error.correlationID)
        wrapped.claimsChallenge = error.claimsChallenge ?? claims
        return wrapped
    }
}
