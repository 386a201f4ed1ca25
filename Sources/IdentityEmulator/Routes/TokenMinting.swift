import Foundation
import Hummingbird

/// Turns a successful grant into Entra's token response: access token, ID token, refresh token,
/// `client_info`, and the fields CAE-capable and family clients get.
struct TokenMinting: Sendable {
    let core: EmulatorCore

    private static let idTokenFaults: Set<Scenario.Fault> = [
        .idTokenBadSignature, .idTokenAlgNone, .idTokenWrongNonce, .idTokenMissingNonce, .idTokenUnknownKid,
        .idTokenWrongAudience, .idTokenWrongIssuer,
        .idTokenExpired, .idTokenIssuedInFuture, .idTokenOtherUser, .missingTokenType, .nonBearerTokenType,
        .declineScopes,
    ]

    /// - Parameters:
    ///   - claims: the `claims` request (client capabilities); the form's by default.
    ///   - firstResourceOnly: mint for the first resource when several are asked (code redemption).
    func userTokens(
        _ c: GrantContext, membership: Membership, scopes: ScopeSet, nonce: String?,
        claims: String? = nil, firstResourceOnly: Bool = false
    ) async throws(EntraError) -> Response {
        if let policy = c.policy {
            return try await b2cUserTokens(c, membership: membership, scopes: scopes, nonce: nonce, policy: policy)
        }
        if scopes.resources.count > 1, !firstResourceOnly { throw .multipleResources(c.form["scope"] ?? "") }
        guard let resource = scopes.primaryResource(c.index) else { throw .invalidScope(c.form["scope"] ?? "") }
        let consented = await core.state.consentedScopes(userID: membership.user.id, client: c.client)
        var grants = scopes.grants(for: resource, consented: consented)
        let missing = grants.filter { !consented.contains($0.key) }
        guard missing.isEmpty else {
            throw .consentRequired(client: c.client.clientId, scopes: missing.map(\.name).joined(separator: " "))
        }
        if await core.scenario(for: .token, where: { $0.fault == .multifactorRequired }) != nil {
            throw .multifactorRequired(resource: resource.identifierUri ?? resource.clientId)
        }
        let fault = await core.scenario(for: .token, where: { Self.idTokenFaults.contains($0.fault) })?.fault
        if fault == .declineScopes, grants.count > 1 { grants.removeLast() }
        let now = core.state.now
        let cp1 = Self.hasCP1(claims: claims ?? c.form["claims"])
        let lifetime: Int
        if let fixed = core.accessTokenLifetime {
            lifetime = fixed
        } else {
            lifetime = core.state.randomInt(in: cp1 ? 70_000...90_000 : 3600...5399)
        }
        let isGraph = resource.identifierUri?.lowercased() == "https://graph.microsoft.com"
        let origin = core.issuerOrigin
        var scp = grants.map(\.name)
        if isGraph {
            scp += ["openid", "profile", "email"].filter {
                scopes.oidc.contains($0) || $0 == "email" && scopes.wantsIDToken
            }
        }
        let uti = core.state.opaque(16)
        let issuer = core.issuer
        let extra = await core.state.takeQueuedClaims(userID: membership.user.id, clientID: c.client.clientId)
        let accessToken: String
        let idToken: String?
        do {
            accessToken = try issuer.accessToken(
                origin: origin, membership: membership, client: c.client, resource: resource,
                scp: scp.joined(separator: " "), now: now, lifetime: lifetime, capabilityCP1: cp1, uti: uti,
                clientClass: c.credential?.authenticationClass ?? "0", audience: scopes.name(of: resource), extra: extra
            )
            idToken =
                scopes.wantsIDToken
                ? try issuer.idToken(
                    origin: origin, membership: membership, clientID: c.client.clientId, nonce: nonce,
                    scopes: scopes, now: now, fault: fault, otherUser: otherUser(than: membership, in: c.index))
                : nil
        } catch {
            throw .serverError
        }
        var body: [(String, JSONValue)] = []
        switch fault {
        case .missingTokenType: break
        case .nonBearerTokenType: body.append(("token_type", .string("pop")))
        default: body.append(("token_type", .string("Bearer")))
        }
        body.append(("scope", .string(scopes.responseScope(grants: grants, resource: resource, isGraph: isGraph))))
        body.append(("expires_in", .int(lifetime)))
        body.append(("ext_expires_in", .int(lifetime)))
        if cp1 { body.append(("refresh_in", .int(lifetime / 2))) }
        body.append(("access_token", .string(accessToken)))
        if scopes.wantsRefreshToken {
            let refreshToken = await core.state.issueRefreshToken(
                RefreshTokenGrant(
                    clientID: c.client.clientId, familyID: c.client.familyId, userID: membership.user.id,
                    tenantID: membership.tenant.id, issuedAt: now))
            body.append(("refresh_token", .string(refreshToken)))
            if let family = c.client.familyId { body.append(("foci", .string(family))) }
        }
        if let idToken { body.append(("id_token", .string(idToken))) }
        if c.form["client_info"] == "1" || c.form["client_info"] == "true" {
            body.append(("client_info", .string(TokenIssuer.clientInfo(membership))))
        }
        return success(.object(body), request: c.request)
    }

    /// An app-only token (client credentials): `roles` are the client's granted application permissions on
    /// `resource`; never a refresh token, ID token or `scope`.
    ///
    /// - Parameter audience: the resource as the client named it (the `aud` of a v1.0 token).
    func appToken(
        _ c: GrantContext, tenantID: String, resource: Application, audience: String? = nil
    ) async throws(EntraError) -> Response {
        let now = core.state.now
        let lifetime = core.accessTokenLifetime ?? 3599
        let uti = core.state.opaque(16)
        let extra = await core.state.takeQueuedClaims(userID: nil, clientID: c.client.clientId)
        let token: String
        do {
            token = try core.issuer.appToken(
                origin: core.issuerOrigin, tenantID: tenantID, client: c.client, resource: resource,
                roles: c.index.grantedRoles(of: c.client, on: resource),
                clientClass: c.credential?.authenticationClass ?? "1", now: now, lifetime: lifetime, uti: uti,
                audience: audience, extra: extra)
        } catch {
            throw .serverError
        }
        return success(
            .object([
                ("token_type", .string("Bearer")), ("expires_in", .int(lifetime)), ("ext_expires_in", .int(lifetime)),
                ("access_token", .string(token)),
            ]), request: c.request)
    }

    func success(_ body: JSONValue, request: Request) -> Response {
        let traceID = core.traceID()
        var headers = HTTPExchange.estsHeaders(traceID: traceID, secure: core.secure)
        if request.headers[.returnClientRequestID]?.lowercased() == "true", let id = request.headers[.clientRequestID] {
            headers[.clientRequestID] = id
        }
        return HTTPExchange.json(body, headers: headers)
    }

    /// True when the `claims` parameter declares the `cp1` client capability.
    static func hasCP1(claims: String?) -> Bool {
        guard let claims, let json = try? JSONValue.parse(Data(claims.utf8)),
            case .array(let values)? = json["access_token"]?["xms_cc"]?["values"]
        else { return false }
        return values.contains { $0.stringValue?.lowercased() == "cp1" }
    }

    private func otherUser(than membership: Membership, in index: DirectoryIndex) -> Membership? {
        index.directory.users.lazy
            .filter { $0.id != membership.user.id }
            .compactMap { index.membership(of: $0, tenantID: membership.tenant.id) }
            .first
    }
}
