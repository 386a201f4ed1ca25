import Crypto
import Foundation

/// Mints the JWTs and `client_info` the token endpoint returns.
struct TokenIssuer: Sendable {
    let keys: SigningKeyRing
    /// Signed ID tokens. RS256 (RSASSA-PKCS1-v1_5) is deterministic, so signing the same claims twice
    /// yields the same token: reusing it is invisible to clients and saves building the claims and an RSA
    /// operation. Refresh grants under load hit it (same user, client, nonce and second); access tokens
    /// are never remembered, because each carries a unique `uti`.
    let idTokenMemo = StringMemo()

    /// The v2.0 issuer for a tenant as served from `origin`.
    static func issuer(origin: String, tenantID: String) -> String { "\(origin)/\(tenantID)/v2.0" }

    /// `client_info`: unpadded base64url of `{"uid":…,"utid":…}` (home object id and tenant). Through a B2C
    /// user flow the uid is `{oid}-{policy}` in lower case, as B2C sends it, so each policy is an account of its own.
    static func clientInfo(_ membership: Membership, policy: String? = nil) -> String {
        let uid = policy.map { "\(membership.user.id)-\($0)".lowercased() } ?? membership.user.id
        return Base64URL.encode(
            JSONValue.object([("uid", .string(uid)), ("utid", .string(membership.homeTenantID))]).serialized)
    }

    /// The pairwise `sub`: stable per user and client (a hash, remembered: every token carries one).
    static func pairwiseSubject(objectID: String, clientID: String) -> String {
        let input = "\(objectID.lowercased())|\(clientID.lowercased())"
        return subjects.value(for: input) { String(Base64URL.encode(SHA256.hash(data: Data(input.utf8))).prefix(43)) }
    }

    private static let subjects = StringMemo()

    /// An ID token with the v2.0 claims of the reference, in its order; `extra` (claims a test asked for) replace those
    /// of the same name.
    func idToken(
        origin: String, membership: Membership, clientID: String, nonce: String?, scopes: ScopeSet,
        now: Date, fault: Scenario.Fault?, otherUser: Membership?, extra: [(String, JSONValue)] = []
    ) throws -> String {
        let subject = fault == .idTokenOtherUser ? (otherUser ?? membership) : membership
        var iat = now.epochSeconds
        if fault == .idTokenExpired { iat -= 7200 }
        if fault == .idTokenIssuedInFuture { iat += 3600 }
        let (profile, email) = (scopes.oidc.contains("profile"), scopes.oidc.contains("email"))
        let payload = {
            JSONValue.object(
                Self.merging(
                    idTokenClaims(
                        origin: origin, subject: subject, clientID: clientID, nonce: nonce, profile: profile,
                        email: email, iat: iat, fault: fault), extra))
        }
        let key = keys.current
        switch fault {
        case .idTokenAlgNone:
            return JWT.unsigned(payload())
        case .idTokenUnknownKid:
            let stranger = try SigningKey.generate(now: now)
            return try JWT.sign(payload(), with: stranger)
        case .idTokenBadSignature:
            let token = try JWT.sign(payload(), with: key)
            let cut = token.index(token.endIndex, offsetBy: -12)
            return String(token[..<cut]) + (token[cut...].hasPrefix("AAAA") ? "BBBBBBBBBBBB" : "AAAAAAAAAAAA")
        case .idTokenWrongNonce, .idTokenMissingNonce, .idTokenWrongAudience, .idTokenWrongIssuer:
            return try JWT.sign(payload(), with: key)
        default:
            // Claims a test asked for make a token of its own.
            guard extra.isEmpty else { return try JWT.sign(payload(), with: key) }
            // Everything the claims depend on (the user's names and mail follow from the object id).
            let memoKey =
                "\(key.kid)|\(origin)|\(subject.tenant.id)|\(subject.objectID)|\(clientID)|\(nonce ?? "-")|\(profile)|\(email)|\(iat)"
            return try idTokenMemo.value(for: memoKey) { try JWT.sign(payload(), with: key) }
        }
    }

    private func idTokenClaims(
        origin: String, subject: Membership, clientID: String, nonce: String?, profile: Bool, email: Bool,
        iat: Int, fault: Scenario.Fault?
    ) -> [(String, JSONValue)] {
        let issuer =
            fault == .idTokenWrongIssuer
            ? "https://login.not-the-emulator.example/\(subject.tenant.id)/v2.0"
            : Self.issuer(origin: origin, tenantID: subject.tenant.id)
        var claims: [(String, JSONValue)] = [
            ("ver", .string("2.0")),
            ("iss", .string(issuer)),
            ("sub", .string(Self.pairwiseSubject(objectID: subject.objectID, clientID: clientID))),
            ("aud", .string(fault == .idTokenWrongAudience ? "00000000-0000-0000-0000-00000000beef" : clientID)),
            ("exp", .int(iat + 3600)),
            ("iat", .int(iat)),
            ("nbf", .int(iat)),
        ]
        if profile {
            claims.append(("name", .string(subject.user.displayName)))
            claims.append(("preferred_username", .string(subject.user.userPrincipalName)))
        }
        if email, let mail = subject.user.mail { claims.append(("email", .string(mail))) }
        claims.append(("oid", .string(subject.objectID)))
        claims.append(("tid", .string(subject.tenant.id)))
        if let nonce, fault != .idTokenMissingNonce {
            claims.append(("nonce", .string(fault == .idTokenWrongNonce ? "not-\(nonce)" : nonce)))
        }
        claims.append(("aio", .string(Self.opaqueClaim("aio", subject.objectID, iat))))
        return claims
    }

    /// The `aud` of a token for `resource`: a v1.0 token names the resource as the client did (an application id
    /// URI as written, with or without its trailing slash, or the client id), a v2.0 token always by client id.
    static func audience(of resource: Application, asNamed named: String?) -> String {
        guard resource.issuesV1Tokens, let named, !named.isEmpty else { return resource.clientId }
        return named
    }

    /// A delegated access token: v1.0 claims for an API that accepts them (``Application/issuesV1Tokens``: Graph,
    /// Resource Manager, Key Vault), v2.0 ones for the others.
    ///
    /// - Parameters:
    ///   - audience: the resource as the client named it (``audience(of:asNamed:)``); its client id when `nil`.
    ///   - clientClass: `appidacr`/`azpacr`: `"0"` public client, `"1"` secret, `"2"` certificate.
    ///   - extra: claims a test asked for (``ClaimsForNextTokens``, `POST /_emulator/tokens`), replacing those of
    ///     the same name.
    func accessToken(
        origin: String, membership: Membership, client: Application, resource: Application,
        scp: String, now: Date, lifetime: Int, capabilityCP1: Bool, uti: String, clientClass: String,
        audience: String? = nil, extra: [(String, JSONValue)] = []
    ) throws -> String {
        let iat = now.epochSeconds
        let user = membership.user
        let aud = Self.audience(of: resource, asNamed: audience)
        var claims: [(String, JSONValue)]
        if resource.issuesV1Tokens {
            claims = [
                ("aud", .string(aud)),
                ("iss", .string("https://sts.windows.net/\(membership.tenant.id)/")),
                ("iat", .int(iat)), ("nbf", .int(iat)), ("exp", .int(iat + lifetime)),
                ("acct", .int(0)),
                ("aio", .string(Self.opaqueClaim("aio", membership.objectID, iat))),
                ("amr", .array([.string("pwd")])),
                ("app_displayname", .string(client.displayName)),
                ("appid", .string(client.clientId)),
                ("appidacr", .string(clientClass)),
                ("family_name", .optional(user.surname)),
                ("given_name", .optional(user.givenName)),
                ("idtyp", .string("user")),
                ("name", .string(user.displayName)),
                ("oid", .string(membership.objectID)),
                ("scp", .string(scp)),
                ("sub", .string(Self.pairwiseSubject(objectID: membership.objectID, clientID: resource.clientId))),
                ("tid", .string(membership.tenant.id)),
                ("unique_name", .string(user.userPrincipalName)),
                ("upn", .string(user.userPrincipalName)),
                ("uti", .string(uti)),
                ("ver", .string("1.0")),
            ]
        } else {
            claims = [
                ("aud", .string(resource.clientId)),
                ("iss", .string(Self.issuer(origin: origin, tenantID: membership.tenant.id))),
                ("iat", .int(iat)), ("nbf", .int(iat)), ("exp", .int(iat + lifetime)),
                ("aio", .string(Self.opaqueClaim("aio", membership.objectID, iat))),
                ("azp", .string(client.clientId)),
                ("azpacr", .string(clientClass)),
                ("idtyp", .string("user")),
                ("name", .string(user.displayName)),
                ("oid", .string(membership.objectID)),
                ("preferred_username", .string(user.userPrincipalName)),
                ("scp", .string(scp)),
                ("sub", .string(Self.pairwiseSubject(objectID: membership.objectID, clientID: resource.clientId))),
                ("tid", .string(membership.tenant.id)),
                ("uti", .string(uti)),
                ("ver", .string("2.0")),
            ]
        }
        if capabilityCP1 { claims.append(("xms_cc", .array([.string("cp1")]))) }
        return try JWT.sign(.object(Self.merging(claims, extra)), with: keys.current)
    }

    /// An app-only access token (client credentials): `idtyp` `app`, the granted application permissions as
    /// `roles` (no `roles` claim when none is granted). An API that accepts v1.0 tokens (Graph, Resource Manager,
    /// Key Vault) gets v1.0 claims (`appid`, `appidacr`, the `sts.windows.net` issuer), other APIs v2.0 ones (`azp`,
    /// `azpacr`).
    ///
    /// - Parameters:
    ///   - clientClass: `"1"` after a secret, `"2"` after a certificate or federated credential.
    ///   - audience: the resource as the client named it (``audience(of:asNamed:)``); its client id when `nil`.
    ///   - managedIdentity: for a managed identity's token: its object id is the `oid`, its resource id `xms_mirid`.
    ///   - extra: claims a test asked for, replacing those of the same name.
    func appToken(
        origin: String, tenantID: String, client: Application, resource: Application, roles: [String],
        clientClass: String, now: Date, lifetime: Int, uti: String, audience: String? = nil,
        managedIdentity: AzureManagedIdentity? = nil, extra: [(String, JSONValue)] = []
    ) throws -> String {
        let iat = now.epochSeconds
        let principal = managedIdentity?.objectId ?? Self.servicePrincipalID(client.clientId)
        let aio = Self.opaqueClaim("aio", principal, iat)
        let isV1 = resource.issuesV1Tokens
        let aud = Self.audience(of: resource, asNamed: audience)
        var claims: [(String, JSONValue)]
        if isV1 {
            claims = [
                ("aud", .string(aud)),
                ("iss", .string("https://sts.windows.net/\(tenantID)/")),
                ("iat", .int(iat)), ("nbf", .int(iat)), ("exp", .int(iat + lifetime)),
                ("aio", .string(aio)),
                ("app_displayname", .string(client.displayName)),
                ("appid", .string(client.clientId)),
                ("appidacr", .string(clientClass)),
                ("idp", .string("https://sts.windows.net/\(tenantID)/")),
                ("idtyp", .string("app")),
                ("oid", .string(principal)),
            ]
        } else {
            claims = [
                ("aud", .string(resource.clientId)),
                ("iss", .string(Self.issuer(origin: origin, tenantID: tenantID))),
                ("iat", .int(iat)), ("nbf", .int(iat)), ("exp", .int(iat + lifetime)),
                ("aio", .string(aio)),
                ("azp", .string(client.clientId)),
                ("azpacr", .string(clientClass)),
                ("idtyp", .string("app")),
                ("oid", .string(principal)),
            ]
        }
        if !roles.isEmpty { claims.append(("roles", .array(roles.map(JSONValue.string)))) }
        if let managedIdentity { claims.append(("xms_mirid", .string(managedIdentity.resourceId))) }
        claims += [
            ("sub", .string(principal)),
            ("tid", .string(tenantID)),
            ("uti", .string(uti)),
            ("ver", .string(isV1 ? "1.0" : "2.0")),
        ]
        return try JWT.sign(.object(Self.merging(claims, extra)), with: keys.current)
    }

    /// `claims` with `extra`'s: each replaces the claim of its name in place, or is added at the end.
    static func merging(_ claims: [(String, JSONValue)], _ extra: [(String, JSONValue)]) -> [(String, JSONValue)] {
        var merged = claims
        for (name, value) in extra {
            if let index = merged.firstIndex(where: { $0.0 == name }) {
                merged[index].1 = value
            } else {
                merged.append((name, value))
            }
        }
        return merged
    }

    /// A stable GUID-shaped object id for an app's service principal.
    static func servicePrincipalID(_ clientID: String) -> String {
        let hex = SHA256.hash(data: Data("sp|\(clientID.lowercased())".utf8)).map { String(format: "%02x", $0) }
            .joined()
        let c = Array(hex)
        return
            "\(String(c[0..<8]))-\(String(c[8..<12]))-4\(String(c[13..<16]))-a\(String(c[17..<20]))-\(String(c[20..<32]))"
    }

    private static func opaqueClaim(_ label: String, _ subject: String, _ iat: Int) -> String {
        String(Base64URL.encode(SHA256.hash(data: Data("\(label)|\(subject)|\(iat)".utf8))).prefix(40))
    }
}
