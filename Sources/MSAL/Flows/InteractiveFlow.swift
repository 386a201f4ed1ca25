import Foundation

/// Authorization code flow with PKCE through the system browser and a loopback redirect
/// (RFC 6749 §4.1, RFC 7636, RFC 8252).
struct InteractiveFlow: Sendable {
    let app: ApplicationCore

    func run(_ parameters: InteractiveParameters) async throws -> AuthenticationResult {
        let config = app.configuration
        let correlationID = app.correlationIDs.next()
        let authority = parameters.authority ?? config.authority
        let endpoints = try await app.resolver.endpoints(for: authority, online: true)
        guard let redirect = URLComponents(string: config.redirectURI), redirect.scheme == "http",
            Authority.isLoopback(redirect.host?.lowercased() ?? "")
        else {
            throw MSALError.internal(
                .invalidRedirectURI,
                "Interactive sign-in on Linux needs a loopback redirect URI such as http://localhost; got \(config.redirectURI)."
            )
        }
        let receiver = try await LoopbackRedirectReceiver.start(
            path: redirect.path.isEmpty ? "/" : redirect.path, port: redirect.port ?? 0)
        do {
            let result = try await signIn(
                parameters, endpoints: endpoints, redirect: redirect, receiver: receiver, correlationID: correlationID)
            await receiver.close()
            app.log.info(
                "interactive sign-in finished",
                ["correlation_id": correlationID.uuidString, "tenant": result.tenantProfile.tenantID],
                pii: ["username": result.account.username])
            return result
        } catch {
            await receiver.close()
            throw error
        }
    }

    private func signIn(
        _ parameters: InteractiveParameters, endpoints: AuthorityEndpoints, redirect: URLComponents,
        receiver: LoopbackRedirectReceiver, correlationID: UUID
    ) async throws -> AuthenticationResult {
        let config = app.configuration
        var redirectURI = redirect
        redirectURI.port = receiver.port
        let redirectString = redirectURI.string!
        let pkce = PKCE(random: config.random)
        let state = Base64URL.encode(config.random.bytes(16))
        let nonce = Base64URL.encode(config.random.bytes(16))
        let scopes = Scopes.decorated(parameters.scopes)
        let claims = try ClaimsRequest.merged(parameters.claims, capabilities: config.clientCapabilities)
        var query: [(String, String)] = [
            ("client_id", config.clientID), ("response_type", "code"), ("redirect_uri", redirectString),
            ("scope", scopes.joined(separator: " ")), ("state", state), ("nonce", nonce),
            ("code_challenge", pkce.challenge), ("code_challenge_method", PKCE.method), ("client_info", "1"),
            ("client-request-id", correlationID.uuidString.lowercased()),
        ]
        if let prompt = parameters.prompt { query.append(("prompt", prompt.rawValue)) }
        if let hint = parameters.loginHint { query.append(("login_hint", hint)) }
        if let hint = parameters.domainHint { query.append(("domain_hint", hint)) }
        if let claims { query.append(("claims", claims)) }
        query += parameters.extraQueryParameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var authorize = URLComponents(url: endpoints.authorization, resolvingAgainstBaseURL: false)!
        authorize.percentEncodedQuery = FormEncoding.encode(query)
        app.log.info("interactive sign-in started", ["correlation_id": correlationID.uuidString])
        try await (parameters.browser ?? config.browser).open(authorize.url!)
        let response = try await receiver.redirect(timeout: config.interactiveTimeout)
        if let error = response["error"] {
            let oauth = OAuthErrorResponse.classify(error: error, subError: response["error_subcode"])
            throw MSALError(
                oauth.0, internalCode: oauth.1, response["error_description"] ?? error, oauthError: error,
                oauthSubError: response["error_subcode"], correlationID: correlationID)
        }
        guard response["state"] == state else {
            throw MSALError.internal(
                .invalidState, "The redirect's state does not match the request; the response was refused.")
        }
        guard let code = response["code"] else {
            throw MSALError.internal(.invalidResponse, "The redirect carries neither a code nor an error.")
        }
        var form: [(String, String)] = [
            ("client_id", config.clientID), ("grant_type", "authorization_code"), ("code", code),
            ("redirect_uri", redirectString), ("code_verifier", pkce.verifier),
            ("scope", scopes.joined(separator: " ")),
            ("client_info", "1"),
        ]
        if let claims { form.append(("claims", claims)) }
        let tokens = try await app.tokenClient.token(form, endpoint: endpoints.token, correlationID: correlationID)
        return try await app.responseHandler.handle(
            tokens,
            .init(
                endpoints: endpoints, requestedScopes: parameters.scopes, nonce: nonce, expectedObjectID: nil,
                grant: "authorization_code", usedRefreshToken: nil, correlationID: correlationID))
    }
}
