import MSAL
import Vapor

/// Lets a request through when ``AccessTokenAuthenticator`` logged a caller in; otherwise answers with the Bearer
/// challenge: 401 `Bearer` without a token, 401 `invalid_token` for a refused one, 503 when the authority's keys
/// cannot be fetched. A ``BearerChallenge`` the route throws (a downstream API's claims or consent challenge, a
/// permission check) becomes its response, as MSALHummingbird answers it. It runs on the request's event loop.
///
///     let api = app.grouped(AccessTokenAuthenticator(), AccessTokenGuardMiddleware())
public struct AccessTokenGuardMiddleware: Middleware {
    /// A guard.
    public init() {}

    /// Answers with the challenge, or lets the request through.
    public func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        Self.admit(request, caller: request.auth.get(AccessTokenPrincipal.self), requiring: nil, to: next)
    }

    /// Calls `next` when `caller` (the one logged in) has a token that carries `permission` (any token when `nil`),
    /// turning a ``BearerChallenge`` it throws into its response; otherwise answers with the challenge.
    static func admit(
        _ request: Request, caller: AccessTokenPrincipal?, requiring permission: RequiredPermission?,
        to next: any Responder
    ) -> EventLoopFuture<Response> {
        guard let caller else {
            let challenge = request.storage[RejectionKey.self].map(BearerChallenge.invalidToken) ?? .missingToken
            return request.eventLoop.makeSucceededFuture(challenge.response)
        }
        do {
            try permission?.check(caller.token, logger: request.logger, path: request.url.path)
        } catch {
            return request.eventLoop.makeSucceededFuture(error.response)
        }
        return next.respond(to: request).flatMapErrorThrowing { error in
            guard let challenge = error as? BearerChallenge else { throw error }
            return challenge.response
        }
    }
}
