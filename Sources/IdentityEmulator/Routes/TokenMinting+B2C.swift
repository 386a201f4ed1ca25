import Foundation
import Hummingbird

/// The token response of a B2C user flow: B2C-shaped tokens (``TokenIssuer/b2cIDToken(origin:membership:clientID:nonce:policy:now:)``),
/// `client_info` with the policy in its uid, and no access token when only OpenID scopes are asked, as B2C answers.
extension TokenMinting {
    func b2cUserTokens(
        _ c: GrantContext, membership: Membership, scopes: ScopeSet, nonce: String?, policy: String
    ) async throws(EntraError) -> Response {
        let now = core.state.now
        let lifetime = core.accessTokenLifetime ?? 3600
        let origin = core.issuerOrigin
        var body: [(String, JSONValue)] = []
        if let first = scopes.resources.first {
            guard let resource = core.state.index.api(identifier: first.id) else {
                throw .invalidScope(c.form["scope"] ?? "")
            }
            let consented = await core.state.consentedScopes(userID: membership.user.id, client: c.client)
            let grants = scopes.grants(for: resource, consented: consented)
            let missing = grants.filter { !consented.contains($0.key) }
            guard missing.isEmpty else {
                throw .consentRequired(client: c.client.clientId, scopes: missing.map(\.name).joined(separator: " "))
            }
            let token: String
            do {
                token = try core.issuer.b2cAccessToken(
                    origin: origin, membership: membership, client: c.client, resource: resource,
                    scp: grants.map(\.name).joined(separator: " "), policy: policy, now: now, lifetime: lifetime)
            } catch {
                throw .serverError
            }
            body += [
                ("access_token", .string(token)), ("token_type", .string("Bearer")),
                ("not_before", .int(now.epochSeconds)),
                ("expires_in", .int(lifetime)), ("expires_on", .int(now.epochSeconds + lifetime)),
                ("resource", .string(resource.clientId)),
                ("scope", .string(scopes.responseScope(grants: grants, resource: resource, isGraph: false))),
            ]
        }
        if scopes.wantsIDToken {
            do {
                let idToken = try core.issuer.b2cIDToken(
                    origin: origin, membership: membership, clientID: c.client.clientId, nonce: nonce, policy: policy,
                    now: now)
                body.append(("id_token", .string(idToken)))
            } catch {
                throw .serverError
            }
        }
        if scopes.wantsRefreshToken {
            let refreshToken = await core.state.issueRefreshToken(
                RefreshTokenGrant(
                    clientID: c.client.clientId, familyID: nil, userID: membership.user.id,
                    tenantID: membership.tenant.id, issuedAt: now))
            body.append(("refresh_token", .string(refreshToken)))
        }
        if c.form["client_info"] == "1" || c.form["client_info"] == "true" {
            body.append(("client_info", .string(TokenIssuer.clientInfo(membership, policy: policy))))
        }
        return success(.object(body), request: c.request)
    }
}
