import Foundation

/// The one place a token response becomes cache entries and a result. A user's tokens: the ID token validated,
/// the account derived, everything stored, scopes the server declined reported. An app's token: the access token
/// filed in the app-token partition.
struct TokenResponseHandler: Sendable {
    let clientID: String
    let validator: IDTokenValidator
    let clock: any TimeSource

    struct Context: Sendable {
        let endpoints: AuthorityEndpoints
        let requestedScopes: [String]
        let nonce: String?
        /// The `oid` the ID token must carry (refreshing a known account in a known tenant).
        let expectedObjectID: String?
        /// `authorization_code`, `refresh_token`, `urn:ietf:params:oauth:grant-type:device_code`…
        let grant: String
        let usedRefreshToken: String?
        let correlationID: UUID
        /// The realm the access token is filed under when not the endpoints' own (a silent call through
        /// `common` or `organizations` is sent to the account's tenant but filed under the segment).
        var accessTokenRealm: String? = nil
        /// The cache the account's entries go to, by home account id (a confidential client's partition, or
        /// a public client's one cache).
        let cacheForAccount: @Sendable (String) -> TokenCache
        /// Fields added to the access and refresh token entries (`user_assertion_hash` for on-behalf-of).
        var extraFields: [String: CacheValue] = [:]
        /// The app's own query parameters, added to the token endpoint's URL (``ExtraQueryParameters``).
        var extraQueryParameters: [String: String] = [:]
        /// The account a refresh is for: an OpenID provider may answer a refresh without an ID token (OIDC Core
        /// §12.2), and the account's entries then stay as they are.
        var refreshedAccount: Account? = nil
    }

    /// Who a response is for: the validated ID token and the account it names, or the refreshed account's
    /// home account id and realm when an OpenID provider sent no ID token.
    private struct Identity {
        let homeAccountID: String
        let realm: String
        let idToken: (raw: String, jwt: JWT)?
    }

    private func identify(_ response: TokenResponse, _ context: Context) async throws -> Identity {
        guard let rawIDToken = response.idToken else {
            if context.endpoints.authority.kind == .oidc, let account = context.refreshedAccount {
                return Identity(
                    homeAccountID: account.identifier, realm: context.endpoints.issuerTenant ?? "", idToken: nil)
            }
            throw MSALError.internal(
                .invalidResponse, "The token response has no id_token although openid was requested.")
        }
        let idToken = try await validator.validate(
            rawIDToken,
            .init(
                issuer: context.endpoints.issuer, jwksURI: context.endpoints.jwks, clientID: clientID,
                nonce: context.nonce, subject: context.expectedObjectID))
        return Identity(
            homeAccountID: try AccountIdentity.homeAccountID(clientInfo: response.clientInfo, idToken: idToken),
            realm: AccountIdentity.realm(idToken: idToken, endpoints: context.endpoints),
            idToken: (rawIDToken, idToken))
    }

    /// - Throws: ``MSALError`` `invalidIDToken` (nothing is cached), `invalidResponse` without `client_info` or ID
    ///   token (but for an OpenID Connect authority's refresh), `serverDeclinedScopes` after caching what was
    ///   granted.
    func handle(_ response: TokenResponse, _ context: Context) async throws -> AuthenticationResult {
        let now = clock.now()
        let identity = try await identify(response, context)
        let (homeAccountID, realm) = (identity.homeAccountID, identity.realm)
        let cache = context.cacheForAccount(homeAccountID)
        let authority = context.endpoints.authority
        let environment = authority.cacheEnvironment
        let granted = response.scope.map(Scopes.split) ?? context.requestedScopes
        let target = granted.sorted().joined(separator: " ")
        let access = GrantedToken(response).entry(
            at: now, homeAccountID: homeAccountID, environment: environment, clientID: clientID,
            realm: context.accessTokenRealm ?? authority.accessTokenRealm(tenant: realm), target: target,
            extra: context.extraFields)
        let refresh = response.refreshToken.map {
            RefreshTokenEntry(
                homeAccountID: homeAccountID, environment: environment, clientID: clientID, secret: $0,
                target: target, familyID: response.foci, lastModification: now, extra: context.extraFields)
        }
        let account = identity.idToken.map { _, idToken in
            AccountEntry(
                homeAccountID: homeAccountID, environment: environment, realm: realm,
                localAccountID: idToken.string("oid") ?? idToken.string("sub") ?? "",
                username: idToken.string("preferred_username") ?? idToken.string("upn") ?? "",
                accountSource: context.grant)
        }
        try await cache.store(
            CacheArtefacts(
                accessToken: access, refreshToken: refresh,
                idToken: identity.idToken.map { raw, _ in
                    IDTokenEntry(
                        homeAccountID: homeAccountID, environment: environment, realm: realm, clientID: clientID,
                        secret: raw)
                },
                account: account,
                appMetadata: AppMetadataEntry(clientID: clientID, environment: environment, familyID: response.foci)),
            replacingRefreshToken: context.usedRefreshToken)
        let declined = Scopes.declined(requested: context.requestedScopes, granted: granted)
        if !declined.isEmpty {
            throw MSALError(
                .serverDeclinedScopes, "The server did not grant: \(declined.joined(separator: " ")).",
                correlationID: context.correlationID, grantedScopes: granted, declinedScopes: declined)
        }
        let resolvedAccount = try await AccountBuilder(cache: cache, clientID: clientID)
            .account(homeAccountID: homeAccountID, environments: context.endpoints.aliases)
        return AuthenticationResult(
            accessToken: response.accessToken, expiresOn: access.expiresOn, scopes: granted,
            idToken: identity.idToken?.raw,
            account: resolvedAccount,
            tenantProfile: resolvedAccount.tenantProfiles.first { $0.tenantID == realm }
                ?? resolvedAccount.tenantProfiles[0],
            correlationID: context.correlationID, source: .identityProvider)
    }

    /// Files an app's token (client credentials, managed identity) under `realm` in `cache`, with no account.
    ///
    /// - Parameter granted: the scopes the server granted, or the resource; the target the token is found by.
    static func storeAppToken(
        _ token: GrantedToken, granted: [String], clientID: String, environment: String, realm: String,
        at now: Date, in cache: TokenCache
    ) async throws -> AccessTokenEntry {
        let entry = token.entry(
            at: now, homeAccountID: "", environment: environment, clientID: clientID, realm: realm,
            target: granted.sorted().joined(separator: " "))
        try await cache.store(CacheArtefacts(accessToken: entry), replacingRefreshToken: nil)
        return entry
    }
}
