import MSAL
import Vapor

/// Lets a request through when ``AccessTokenAuthenticator`` logged a caller in; otherwise answers with the Bearer
/// challenge: 401 `Bearer` without a token, 401 `invalid_token` for a refused one, 503 when the authority's keys
/// cannot be fetched. A ``BearerChallenge`` the route throws (a downstream API's claims or consent challenge, a
/// permission check) becomes its response, as MSALHummingbird answers it.
///
///     let api = app.grouped(AccessTokenAuthenticator(), AccessTokenGuardMiddleware())
public struct AccessTokenGuardMiddleware: AsyncMiddleware {
    /// A guard.
    public init() {}

    /// Answers with the challenge, or lets the request through.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.auth.has(AccessTokenPrincipal.self) else {
            let challenge = request.storage[RejectionKey.self].map(BearerChallenge.invalidToken) ?? .missingToken
            return try await challenge.encodeResponse(for: request)
        }
        do {
            return try await next.respond(to: request)
        } catch let challenge as BearerChallenge {
            return try await challenge.encodeResponse(for: request)
        }
    }
}
