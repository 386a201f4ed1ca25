import MSAL
import Vapor

/// ``AccessTokenAuthenticator``, ``AccessTokenGuardMiddleware`` and, when the route names permissions,
/// ``RequiredPermissionMiddleware`` as one middleware, which `requiringAccessToken(_:scopes:appRoles:)` installs: a
/// remembered token is accepted, its permission checked and the route called with no future or middleware in between.
struct AccessTokenRequirement: Middleware {
    let authenticator: AccessTokenAuthenticator
    /// What the caller's token must carry; `nil`: any token the validator accepts.
    let permission: RequiredPermission?

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard let validation = authenticator.authenticateAtOnce(request) else {
            return AccessTokenGuardMiddleware.admit(request, requiring: permission, to: next)
        }
        return validation.flatMap { AccessTokenGuardMiddleware.admit(request, requiring: permission, to: next) }
    }
}
