import Vapor

/// ``AccessTokenAuthenticator`` then ``AccessTokenGuardMiddleware`` as one middleware, which
/// `requiringAccessToken(_:)` installs: a remembered token is accepted and the route called with no future or
/// middleware in between.
struct AccessTokenRequirement: Middleware {
    let authenticator: AccessTokenAuthenticator
    let accessGuard = AccessTokenGuardMiddleware()

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard let validation = authenticator.authenticateAtOnce(request) else {
            return accessGuard.respond(to: request, chainingTo: next)
        }
        return validation.flatMap { accessGuard.respond(to: request, chainingTo: next) }
    }
}
