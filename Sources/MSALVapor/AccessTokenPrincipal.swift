import MSAL
import Vapor

/// The caller of a protected API, as ``AccessTokenAuthenticator`` logs it into `req.auth`: the access token it sent,
/// validated by MSAL's ``AccessTokenValidator`` (signature, issuer, tenant, audience, lifetime).
///
///     let caller = try req.auth.require(AccessTokenPrincipal.self)
///     req.logger.info("call", metadata: ["tenant": "\(caller.tenantID ?? "")"])
public struct AccessTokenPrincipal: Authenticatable, Sendable {
    /// The validated token.
    public let token: ValidatedAccessToken

    /// The caller of `token`.
    public init(token: ValidatedAccessToken) {
        self.token = token
    }

    /// The tenant that issued the token (`tid`).
    public var tenantID: String? { token.tenantID }
    /// The user's, or the calling app's service principal's, object id (`oid`).
    public var objectID: String? { token.objectID }
    /// The calling app's client id (`azp`, or `appid` in v1 tokens).
    public var appID: String? { token.clientID }
    /// The delegated permissions (`scp`); empty for an app-only token.
    public var scopes: Set<String> { token.scopes }
    /// The app roles (`roles`).
    public var roles: Set<String> { token.roles }
    /// Whether the token was issued to an app for itself rather than for a user.
    public var isAppOnly: Bool { token.isAppOnly }
    /// The token as the caller sent it, for an on-behalf-of request; never log it.
    public var rawToken: String { token.rawValue }
}
