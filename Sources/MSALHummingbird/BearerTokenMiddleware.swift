import Hummingbird
import Logging
import MSAL

/// Protects the routes after it: a request needs `Authorization: Bearer <token>` with a token the
/// ``AccessTokenValidator`` accepts, else it is answered with a ``BearerChallenge`` (401, or 503 when the authority's
/// keys cannot be fetched) and the handler never runs. The validated token is put in the context.
///
/// A token needs a scope (`scp`) or an app role (`roles`) to pass, as with Microsoft.Identity.Web (IDW10201): the ID
/// token of an app that shares its registration with the API is refused. An API that authorizes its callers by an
/// access-control list instead turns on ``AccessTokenValidator/Configuration/allowsAuthorizationByACL``.
///
///     let validator = try AccessTokenValidator(authority: authority, audiences: [clientID, appIDURI])
///     let api = router.group("api").add(middleware: BearerTokenMiddleware<APIContext>(validator: validator))
///     api.get("todolist", use: list)   // context.accessToken is set
public struct BearerTokenMiddleware<Context: AccessTokenRequestContext>: RouterMiddleware {
    /// What tokens are accepted.
    public let validator: AccessTokenValidator

    /// A middleware that accepts the tokens `validator` accepts.
    public init(validator: AccessTokenValidator) {
        self.validator = validator
    }

    /// Validates the bearer token and calls `next` with it in the context, or answers with a challenge.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard let token = AuthorizationHeader.bearerToken(request.headers[.authorization]) else {
            throw BearerChallenge.missingToken
        }
        var context = context
        do {
            context.accessToken = try await validator.validate(token)
        } catch let rejection as AccessTokenRejection {
            rejection.log(to: context.logger, path: request.uri.path)
            throw BearerChallenge.invalidToken(rejection)
        }
        return try await next(request, context)
    }
}
