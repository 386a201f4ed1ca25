import Foundation

/// Authorization code flow with PKCE through the system browser and a redirect receiver
/// (RFC 6749 §4.1, RFC 7636, RFC 8252).
struct InteractiveFlow: Sendable {
    let app: ApplicationCore
    /// The public client's configuration: its browser, redirect URI and receiver, and time limit.
    let config: PublicClientApplicationConfiguration
    let cache: TokenCache

    func run(_ parameters: InteractiveParameters) async throws -> AuthenticationResult {
        let correlationID = app.correlationIDs.next()
        let endpoints = try await app.resolver.endpoints(
            for: app.settings.authority(parameters.authority), online: true)
        let pkce = PKCE(random: config.random)
        let state = Base64URL.encode(config.random.bytes(16))
        let nonce = Base64URL.encode(config.random.bytes(16))
        let claims = try app.claims(parameters.claims)
        let browser = parameters.browser ?? config.browser
        let response = try await config.redirectReceiver.receiveResponse(
            at: config.redirectURI, state: state, timeout: config.interactiveTimeout
        ) { listening in
            let authorization = AuthorizationRequest(
                clientID: config.clientID, redirectURI: listening,
                scopes: parameters.scopes + parameters.extraScopesToConsent, state: state,
                nonce: nonce, codeChallenge: pkce.challenge, correlationID: correlationID,
                prompt: parameters.prompt?.rawValue, loginHint: parameters.loginHint,
                domainHint: parameters.domainHint, claims: claims, extraParameters: parameters.extraQueryParameters)
            app.log.info("interactive sign-in started", ["correlation_id": correlationID.uuidString])
            try await browser.open(authorization.url(endpoint: endpoints.authorization))
        }
        let code = try Self.code(from: response.parameters, state: state, correlationID: correlationID)
        let redemption = AuthorizationCodeRequest(
            clientID: config.clientID, code: code, redirectURI: response.redirectURI, codeVerifier: pkce.verifier,
            scopes: parameters.scopes, claims: claims)
        let result = try await app.redeem(
            redemption,
            .init(
                endpoints: endpoints, requestedScopes: parameters.scopes, nonce: nonce, expectedObjectID: nil,
                grant: redemption.grantType, usedRefreshToken: nil, correlationID: correlationID,
                cacheForAccount: { [cache] _ in cache }, extraQueryParameters: parameters.extraQueryParameters))
        app.log.info(
            "interactive sign-in finished",
            ["correlation_id": correlationID.uuidString, "tenant": result.tenantProfile.tenantID],
            pii: ["username": result.account.username])
        return result
    }

    /// The authorization code of a response whose `state` is the request's (RFC 6749 §4.1.2), or its error.
    static func code(from response: [String: String], state: String, correlationID: UUID) throws -> String {
        if let error = response["error"] {
            throw MSALError(
                OAuthErrorResponse.classify(error: error, subError: response["error_subcode"]),
                response["error_description"] ?? error, oauthError: error, oauthSubError: response["error_subcode"],
                correlationID: correlationID)
        }
        try requireState(response, state)
        guard let code = response["code"] else {
            throw MSALError.internal(.invalidResponse, "The redirect carries neither a code nor an error.")
        }
        return code
    }

    /// Refuses a response whose `state` is not the request's (or that has none).
    static func requireState(_ response: [String: String], _ state: String) throws {
        guard response["state"] == state else {
            throw MSALError.internal(
                .invalidState, "The redirect's state does not match the request; the response was refused.")
        }
    }
}
