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
        switch authenticator.authenticateAtOnce(request) {
        case .done(let caller):
            // Without a bearer token, a caller an earlier authenticator logged in is still admitted.
            return AccessTokenGuardMiddleware.admit(
                request, caller: caller ?? request.auth.get(AccessTokenPrincipal.self), requiring: permission,
                to: next)
        case .pending(let validation):
            return validation.flatMap {
                AccessTokenGuardMiddleware.admit(
                    request, caller: request.auth.get(AccessTokenPrincipal.self), requiring: permission, to: next)
            }
        }
    }
}
