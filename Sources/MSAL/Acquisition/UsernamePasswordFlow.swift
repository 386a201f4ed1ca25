import Foundation

/// The resource owner password credentials grant (RFC 6749 §4.3) as MSAL Python, Go and .NET send it: the user
/// realm first (`protocol.md` §1.5) on Microsoft Entra authorities, then the password grant; the answer is cached
/// and the account made as for every other sign-in.
///
/// A federated user's password is checked by their organisation's identity provider, which MSAL reaches over
/// WS-Trust; this library does not, and says so before sending the password anywhere.
struct UsernamePasswordFlow: Sendable {
    let app: ApplicationCore
    let cache: TokenCache

    func run(_ parameters: UsernamePasswordParameters) async throws -> AuthenticationResult {
        guard !parameters.username.allSatisfy(\.isWhitespace) else {
            throw MSALError.internal(.invalidParameter, "The username is empty.")
        }
        let correlationID = app.correlationIDs.next()
        let authority = parameters.authority ?? app.settings.authority
        let endpoints = try await app.resolver.endpoints(for: authority, online: true)
        if authority.kind == .aad || authority.kind == .ciam,
            let realm = try await app.client.userRealm(
                username: parameters.username, authority: authority, correlationID: correlationID),
            realm.isFederated
        {
            throw MSALError(
                .interactionRequired,
                "The user's domain\(realm.domainName.map { " \($0)" } ?? "") is federated: their password is checked "
                    + "by their organisation's identity provider over WS-Trust, which this library does not do. "
                    + "Sign the user in interactively or with a device code.",
                correlationID: correlationID)
        }
        app.log.info(
            "username and password sign-in started", ["correlation_id": correlationID.uuidString],
            pii: ["username": parameters.username])
        let request = UsernamePasswordRequest(
            clientID: app.settings.clientID, username: parameters.username, password: parameters.password,
            scopes: parameters.scopes, claims: try app.claims(parameters.claims))
        do {
            return try await app.redeem(
                request,
                .init(
                    endpoints: endpoints, requestedScopes: parameters.scopes, nonce: nil, expectedObjectID: nil,
                    grant: request.grantType, usedRefreshToken: nil, correlationID: correlationID,
                    cacheForAccount: { [cache] _ in cache },
                    extraQueryParameters: parameters.extraQueryParameters))
        } catch let error as MSALError where Self.needsUser(error) {
            throw error.requiringInteraction(claims: parameters.claims)
        }
    }

    /// An answer only the user can resolve in a browser: `interaction_required`, or `invalid_grant` with a
    /// suberror asking for the user (MFA is `basic_action`, AADSTS50076).
    static func needsUser(_ error: MSALError) -> Bool {
        let userSubErrors: Set = [
            "basic_action", "additional_action", "message_only", "consent_required", "user_password_expired",
        ]
        return error.code != .interactionRequired
            && (error.oauthError == "interaction_required" || userSubErrors.contains(error.oauthSubError ?? ""))
    }
}
