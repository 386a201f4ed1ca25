import Crypto
import Foundation
import Hummingbird

/// `/{tenant}/oauth2/v2.0/token`: authorization code, refresh token, device code, password, client
/// credentials and on-behalf-of grants, answering with Entra's bodies and headers.
struct TokenRoutes: Sendable {
    let core: EmulatorCore
    let minting: TokenMinting

    func register(on router: Router<EmulatorRequestContext>) {
        router.post(":tenant/oauth2/v2.0/token") { request, context in
            let form = try await HTTPExchange.form(request, context: context)
            let segment = context.parameters.get("tenant") ?? ""
            do throws(EntraError) {
                return try await token(request, tenant: segment, form: form)
            } catch {
                return await core.errorResponse(error, for: request)
            }
        }
    }

    /// - Parameter policy: the B2C user flow whose endpoint was called, whose tokens are B2C's.
    func token(_ request: Request, tenant segment: String, form: FormBody, policy: String? = nil)
        async throws(EntraError) -> Response
    {
        let index = core.state.index
        guard let selector = index.selector(segment) else { throw .tenantNotFoundAtToken(segment) }
        guard let grantType = form.nonEmpty("grant_type") else { throw .missingParameter("grant_type") }
        guard let clientID = form.nonEmpty("client_id") ?? ClientAuthentication.basicCredentials(request)?.id else {
            throw .missingParameter("client_id")
        }
        // An API is a client only when it has a credential: the middle tier of on-behalf-of.
        guard let client = index.application(clientID: clientID), client.kind != .api || client.hasCredential else {
            throw .unknownClient(clientID, tenant: segment)
        }
        let credential = try await ClientAuthentication(core: core).authenticate(
            client, form: form, request: request, selector: selector)
        let context = GrantContext(
            request: request, selector: selector, segment: segment, form: form, client: client, index: index,
            credential: credential, policy: policy)
        if NativeTokenGrants.handles(grantType, form: form) {
            return try await NativeTokenGrants(support: NativeAuthSupport(core: core), minting: minting).token(
                context, grantType: grantType)
        }
        switch grantType {
        case "authorization_code": return try await authorizationCode(context)
        case "refresh_token": return try await refreshToken(context)
        case "urn:ietf:params:oauth:grant-type:device_code", "device_code": return try await deviceCode(context)
        case "password": return try await password(context)
        case "client_credentials": return try await clientCredentials(context)
        case OnBehalfOfGrant.grantType: return try await OnBehalfOfGrant(core: core, minting: minting).token(context)
        default: throw .unsupportedGrantType
        }
    }

    private func authorizationCode(_ c: GrantContext) async throws(EntraError) -> Response {
        guard let code = c.form.nonEmpty("code") else { throw .missingParameter("code") }
        guard let redirectURI = c.form.nonEmpty("redirect_uri") else { throw .missingParameter("redirect_uri") }
        let grant = try await core.state.redeemCode(code).get()
        guard grant.clientID.lowercased() == c.client.clientId.lowercased() else { throw .codeClientMismatch }
        guard RedirectURI.withPath(redirectURI) == RedirectURI.withPath(grant.redirectURI) else {
            throw .redirectMismatchAtToken
        }
        if let challenge = grant.codeChallenge {
            guard let verifier = c.form.nonEmpty("code_verifier") else { throw .pkceMismatch }
            let computed =
                grant.codeChallengeMethod == "S256"
                ? Base64URL.encode(SHA256.hash(data: Data(verifier.utf8))) : verifier
            guard computed == challenge else { throw .pkceMismatch }
        }
        if case .tenant(let t) = c.selector, t.id.lowercased() != grant.tenantID.lowercased() {
            throw EntraError(
                error: "invalid_grant", code: 700005,
                message:
                    "Provided Authorization Code is intended to use against other tenant, thus rejected.")
        }
        guard let user = c.index.user(objectID: grant.objectID),
            let membership = c.index.membership(of: user, tenantID: grant.tenantID)
        else {
            throw .malformedGrant
        }
        let scopes =
            try c.form.nonEmpty("scope").map { raw throws(EntraError) in try ScopeSet(parsing: raw, index: c.index) }
            ?? grant.scopes
        return try await minting.userTokens(
            c, membership: membership, scopes: scopes, nonce: grant.nonce, firstResourceOnly: true)
    }

    private func refreshToken(_ c: GrantContext) async throws(EntraError) -> Response {
        guard let token = c.form.nonEmpty("refresh_token") else { throw .missingParameter("refresh_token") }
        guard let rawScope = c.form.nonEmpty("scope") else { throw .missingParameter("scope") }
        let grant = try await core.state.refreshGrant(token).get()
        let sameClient = grant.clientID.lowercased() == c.client.clientId.lowercased()
        let sameFamily = grant.familyID != nil && grant.familyID == c.client.familyId
        guard sameClient || sameFamily else { throw .refreshClientMismatch }
        let tenantID: String
        if case .tenant(let t) = c.selector { tenantID = t.id } else { tenantID = grant.tenantID }
        guard let user = c.index.user(objectID: grant.userID) else { throw .malformedGrant }
        guard let membership = c.index.membership(of: user, tenantID: tenantID) else {
            throw .notInTenant(c.index.tenant(id: tenantID)?.domain ?? tenantID)
        }
        let scopes = try ScopeSet(parsing: rawScope, index: c.index)
        return try await minting.userTokens(c, membership: membership, scopes: scopes, nonce: nil)
    }

    private func deviceCode(_ c: GrantContext) async throws(EntraError) -> Response {
        guard let code = c.form.nonEmpty("device_code") else { throw .missingParameter("device_code") }
        guard let known = await core.state.deviceAuthorization(deviceCode: code),
            known.client.clientId.lowercased() == c.client.clientId.lowercased()
        else { throw .badVerificationCode }
        if await core.scenario(for: .token, where: { $0.fault == .slowDown }) != nil { throw .slowDown }
        guard let device = await core.state.pollDevice(deviceCode: code) else { throw .badVerificationCode }
        guard device.expiresAt > (core.state.now) else { throw .deviceCodeExpired }
        switch device.status {
        case .pending: throw .authorizationPending
        case .declined: throw .authorizationDeclined
        case .redeemed: throw .badVerificationCode
        case .approved(let tenantID, let objectID):
            guard let user = c.index.user(objectID: objectID),
                let membership = c.index.membership(of: user, tenantID: tenantID)
            else {
                throw .badVerificationCode
            }
            return try await minting.userTokens(
                c, membership: membership, scopes: device.scopes, nonce: nil,
                claims: c.form.nonEmpty("claims") ?? device.claims)
        }
    }

    private func password(_ c: GrantContext) async throws(EntraError) -> Response {
        guard let username = c.form.nonEmpty("username") else { throw .missingParameter("username") }
        guard let password = c.form.nonEmpty("password") else { throw .missingParameter("password") }
        guard let rawScope = c.form.nonEmpty("scope") else { throw .missingParameter("scope") }
        if let domain = FederatedDomain.domain(of: username), c.index.federatedDomain(domain) != nil {
            throw .federatedPassword
        }
        guard let user = c.index.user(named: username) else { throw .userNotFound(c.segment) }
        guard let membership = c.index.membership(of: user, in: c.selector) else { throw .notInTenant(c.segment) }
        try core.state.checkPassword(password, of: user)
        let scopes = try ScopeSet(parsing: rawScope, index: c.index)
        if user.needsSecondFactor(tenantSettings: membership.tenant.nativeAuthSettings) {
            let resource = scopes.primaryResource(c.index)
            throw .multifactorRequiredForPassword(
                resource: resource.map { $0.identifierUri ?? $0.clientId } ?? rawScope)
        }
        return try await minting.userTokens(c, membership: membership, scopes: scopes, nonce: nil)
    }

    /// App-only tokens: one resource's `/.default` (OpenID scopes next to it are ignored), on a tenant's
    /// endpoint, for a client that authenticated.
    private func clientCredentials(_ c: GrantContext) async throws(EntraError) -> Response {
        guard c.credential != nil else { throw .secretRequired }
        guard case .tenant(let tenant) = c.selector else { throw .grantNotSupportedOverCommon }
        guard let rawScope = c.form.nonEmpty("scope") else { throw .missingParameter("scope") }
        let resourceScopes = rawScope.split(separator: " ").map(String.init)
            .filter { !ScopeSet.oidcScopes.contains($0.lowercased()) }
        guard !resourceScopes.isEmpty else { throw .defaultRequiredForClientCredentials(rawScope) }
        if let plain = resourceScopes.first(where: { !$0.lowercased().hasSuffix("/.default") }) {
            throw .defaultRequiredForClientCredentials(plain)
        }
        let identifiers = resourceScopes.map { String($0.dropLast("/.default".count)) }
        var resources: [Application] = []
        for identifier in identifiers {
            guard let resource = c.index.api(identifier: identifier) else {
                throw .resourceNotFound(identifier, tenantName: tenant.displayName)
            }
            if !resources.contains(where: { $0.clientId == resource.clientId }) { resources.append(resource) }
        }
        guard resources.count == 1, let resource = resources.first else {
            throw .multipleResourcesForClientCredentials(resourceScopes.joined(separator: " "))
        }
        return try await minting.appToken(c, tenantID: tenant.id, resource: resource, audience: identifiers.first)
    }
}

/// Everything a grant needs about the request.
struct GrantContext: Sendable {
    let request: Request
    let selector: TenantSelector
    let segment: String
    let form: FormBody
    let client: Application
    let index: DirectoryIndex
    /// How a confidential client authenticated; `nil` for a public client.
    var credential: ClientCredentialKind? = nil
    /// The B2C user flow whose token endpoint was called; `nil` on Entra's endpoints.
    var policy: String? = nil
}
