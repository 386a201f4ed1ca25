import MSAL
import Vapor

/// Lets a request through when its caller's token carries one of the permissions the route accepts: a delegated
/// scope (`scp`) for a token issued for a user, an app role (`roles`) for an app-only token, as
/// Microsoft.Identity.Web's `RequiredScopeOrAppPermission` does. Otherwise 403 `insufficient_scope` (RFC 6750),
/// naming what would do. Put it after ``AccessTokenAuthenticator`` and ``AccessTokenGuardMiddleware``, or use
/// `routes.requiring(scopes:appRoles:)`.
///
///     let read = api.requiring(scopes: ["ToDoList.Read"], appRoles: ["ToDoList.Read.All"])
public struct RequiredPermissionMiddleware: Middleware {
    /// Delegated permissions, any one of which a user's token must have.
    public let scopes: Set<String>
    /// App roles, any one of which an app-only token must have (empty: app-only tokens are refused).
    public let appRoles: Set<String>

    /// A check for any one of `scopes` (user tokens) or of `appRoles` (app-only tokens).
    public init(scopes: Set<String> = [], appRoles: Set<String> = []) {
        self.scopes = scopes
        self.appRoles = appRoles
    }

    /// Calls `next` when the caller's token has a permission the route accepts; answers with the challenge
    /// otherwise (401 when no caller is logged in). It runs on the request's event loop.
    public func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        do {
            try request.msal.requirePermission(scopes: scopes, appRoles: appRoles)
        } catch let challenge as BearerChallenge {
            return request.eventLoop.makeSucceededFuture(challenge.response)
        } catch {
            return request.eventLoop.makeFailedFuture(error)
        }
        return next.respond(to: request)
    }
}

extension RoutesBuilder {
    /// Routes for callers with a valid access token carrying one of `scopes` (user tokens) or of `appRoles` (app-only
    /// tokens); with neither, any token `validator` accepts. ``AccessTokenAuthenticator`` (with `validator`, by
    /// default `app.msal.accessTokens`), ``AccessTokenGuardMiddleware`` and ``RequiredPermissionMiddleware`` as one
    /// middleware.
    ///
    ///     let api = app.grouped("api").requiringAccessToken()
    ///     let read = app.grouped("api").requiringAccessToken(scopes: ["ToDoList.Read"], appRoles: ["ToDoList.Read.All"])
    public func requiringAccessToken(
        _ validator: AccessTokenValidator? = nil, scopes: Set<String> = [], appRoles: Set<String> = []
    ) -> any RoutesBuilder {
        let permission =
            scopes.isEmpty && appRoles.isEmpty ? nil : RequiredPermission(scopes: scopes, appRoles: appRoles)
        return grouped(
            AccessTokenRequirement(
                authenticator: AccessTokenAuthenticator(validator: validator), permission: permission))
    }

    /// Routes for callers whose token carries one of `scopes` (user tokens) or of `appRoles` (app-only tokens):
    /// ``RequiredPermissionMiddleware``, for a group inside `requiringAccessToken(_:scopes:appRoles:)`.
    public func requiring(scopes: Set<String> = [], appRoles: Set<String> = []) -> any RoutesBuilder {
        grouped(RequiredPermissionMiddleware(scopes: scopes, appRoles: appRoles))
    }
}
