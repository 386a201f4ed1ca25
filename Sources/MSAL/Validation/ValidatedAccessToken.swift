import Foundation

/// An access token a web API accepted: signature, issuer, tenant, audience and lifetime checked.
public struct ValidatedAccessToken: Sendable {
    /// The token itself, for an on-behalf-of request; never log it.
    public let rawValue: String
    /// Every claim of the token.
    public let claims: [String: any Sendable]

    /// The delegated permissions (`scp`, split on spaces); empty for an app-only token.
    public let scopes: Set<String>
    /// The app roles (`roles`) granted to the calling app, or to the user.
    public let roles: Set<String>
    /// Whether the token was issued to an app for itself (client credentials) rather than for a user:
    /// `idtyp` is `app`, or the token has roles and no `scp` (Microsoft's rule when `idtyp` is absent).
    public let isAppOnly: Bool

    /// Reads the permissions once: a remembered token is checked against routes on every request.
    init(rawValue: String, claims: [String: any Sendable]) {
        self.rawValue = rawValue
        self.claims = claims
        scopes = Set((claims["scp"] as? String).map(Scopes.split) ?? [])
        roles = Set((claims["roles"] as? [any Sendable])?.compactMap { $0 as? String } ?? [])
        if let type = claims["idtyp"] as? String {
            isAppOnly = type == "app"
        } else {
            isAppOnly = claims["scp"] == nil && !roles.isEmpty
        }
    }

    /// The tenant that issued the token (`tid`).
    public var tenantID: String? { claims["tid"] as? String }
    /// The user's, or the calling app's service principal's, object id (`oid`).
    public var objectID: String? { claims["oid"] as? String }
    /// The calling app's client id (`azp` in v2 tokens, `appid` in v1 tokens).
    public var clientID: String? { (claims["azp"] ?? claims["appid"]) as? String }
    /// The token format, `1.0` or `2.0` (`ver`).
    public var version: String? { claims["ver"] as? String }
    /// The user's sign-in name (`preferred_username`, or `upn` in v1 tokens), when the token has one. It is
    /// personal data: log it only when PII logging is on.
    public var username: String? { (claims["preferred_username"] ?? claims["upn"]) as? String }

    /// When the token expires (`exp`).
    public var expiresOn: Date {
        JWT.numericDate(claims["exp"]).map { Date(timeIntervalSince1970: $0) } ?? .distantPast
    }
}
