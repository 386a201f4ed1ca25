import Foundation

/// The tokens of an Azure AD B2C user flow, shaped as B2C's: `ver` 1.0, the issuer `{origin}/{tenant id}/v2.0/`,
/// `sub` the object id, `emails`, and the policy in `tfp`; no `tid`, `preferred_username` or `aio`.
extension TokenIssuer {
    /// The issuer of a B2C tenant's tokens, as its discovery document names it.
    static func b2cIssuer(origin: String, tenantID: String) -> String {
        issuer(origin: origin, tenantID: tenantID) + "/"
    }

    /// An ID token issued through the user flow `policy`.
    func b2cIDToken(origin: String, membership: Membership, clientID: String, nonce: String?, policy: String, now: Date)
        throws -> String
    {
        let iat = now.epochSeconds
        var claims: [(String, JSONValue)] = [
            ("exp", .int(iat + 3600)), ("nbf", .int(iat)), ("ver", .string("1.0")),
            ("iss", .string(Self.b2cIssuer(origin: origin, tenantID: membership.tenant.id))),
            ("sub", .string(membership.objectID)), ("aud", .string(clientID)),
        ]
        if let nonce { claims.append(("nonce", .string(nonce))) }
        claims += Self.b2cUserClaims(membership, iat: iat, policy: policy)
        return try JWT.sign(.object(claims), with: keys.current)
    }

    /// An access token for the B2C tenant's own API `resource`, with the granted scopes in `scp`.
    func b2cAccessToken(
        origin: String, membership: Membership, client: Application, resource: Application, scp: String,
        policy: String, now: Date, lifetime: Int
    ) throws -> String {
        let iat = now.epochSeconds
        var claims: [(String, JSONValue)] = [
            ("exp", .int(iat + lifetime)), ("nbf", .int(iat)), ("ver", .string("1.0")),
            ("iss", .string(Self.b2cIssuer(origin: origin, tenantID: membership.tenant.id))),
            ("sub", .string(membership.objectID)), ("aud", .string(resource.clientId)),
        ]
        claims += Self.b2cUserClaims(membership, iat: iat, policy: policy)
        claims += [("scp", .string(scp)), ("azp", .string(client.clientId))]
        return try JWT.sign(.object(claims), with: keys.current)
    }

    private static func b2cUserClaims(_ membership: Membership, iat: Int, policy: String) -> [(String, JSONValue)] {
        [
            ("iat", .int(iat)), ("auth_time", .int(iat)), ("oid", .string(membership.objectID)),
            ("name", .string(membership.user.displayName)),
            ("emails", .array([.string(membership.user.mail ?? membership.user.userPrincipalName)])),
            ("tfp", .string(policy)),
        ]
    }
}
