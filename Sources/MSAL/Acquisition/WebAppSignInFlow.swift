import Foundation

/// A web app's sign-in (authorization code with PKCE, `state` and `nonce`, the code redeemed with the
/// app's credential): the user ends up as an account in the user partition of the app's cache.
struct WebAppSignInFlow: Sendable {
    let app: ApplicationCore
    let cache: PartitionedTokenCache
    /// The redirect URI of the configuration, if it has one.
    let redirectURI: String?

    func start(_ parameters: WebSignInParameters) async throws -> AuthorizationCodeFlow {
        let config = app.settings
        guard let redirectURI = parameters.redirectURI ?? self.redirectURI else {
            throw MSALError.internal(
                .invalidRedirectURI, "A web sign-in needs a redirect URI: set it in the configuration or parameters.")
        }
        let authority = config.authority(parameters.authority)
        let endpoints = try await app.resolver.endpoints(for: authority, online: true)
        let pkce = PKCE(random: config.random)
        let state = Base64URL.encode(config.random.bytes(16))
        let nonce = Base64URL.encode(config.random.bytes(16))
        let claims = try app.claims(parameters.claims)
        var extra: [String: String] = [:]
        if let mode = parameters.responseMode { extra["response_mode"] = mode.rawValue }
        let request = AuthorizationRequest(
            clientID: config.clientID, redirectURI: redirectURI, scopes: parameters.scopes, state: state,
            nonce: nonce, codeChallenge: pkce.challenge, correlationID: app.correlationIDs.next(),
            prompt: parameters.prompt?.rawValue, loginHint: parameters.loginHint, domainHint: parameters.domainHint,
            claims: claims, extraParameters: extra)
        return AuthorizationCodeFlow(
            authorizationURL: request.url(endpoint: endpoints.authorization), state: state, redirectURI: redirectURI,
            scopes: parameters.scopes, authority: authority.url.absoluteString, nonce: nonce,
            codeVerifier: pkce.verifier, claims: claims)
    }

    func complete(_ flow: AuthorizationCodeFlow, response: [String: String]) async throws -> AuthenticationResult {
        let config = app.settings
        let correlationID = app.correlationIDs.next()
        // Any page can send a browser to a web app's redirect URI: not even an error counts without this
        // sign-in's state, or a forged `error=…` would end the sign-in in progress.
        try InteractiveFlow.requireState(response, flow.state)
        let code = try InteractiveFlow.code(from: response, state: flow.state, correlationID: correlationID)
        let endpoints = try await app.resolver.endpoints(for: try Authority(flow.authority), online: true)
        let redemption = AuthorizationCodeRequest(
            clientID: config.clientID, code: code, redirectURI: flow.redirectURI, codeVerifier: flow.codeVerifier,
            scopes: flow.scopes, claims: flow.claims)
        let result = try await app.redeem(
            redemption,
            .init(
                endpoints: endpoints, requestedScopes: flow.scopes, nonce: flow.nonce, expectedObjectID: nil,
                grant: redemption.grantType, usedRefreshToken: nil, correlationID: correlationID,
                cacheForAccount: { [cache] in cache.cache(for: .user(homeAccountID: $0)) }))
        app.log.info(
            "web sign-in finished",
            ["correlation_id": correlationID.uuidString, "tenant": result.tenantProfile.tenantID],
            pii: ["username": result.account.username])
        return result
    }
}
