import Hummingbird
import MSAL

/// A request context that carries the bearer token ``BearerTokenMiddleware`` validated, for the handlers and the
/// permission checks after it.
///
///     struct APIContext: AccessTokenRequestContext {
///         var coreContext: CoreRequestContextStorage
///         var accessToken: ValidatedAccessToken?
///         init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
///     }
public protocol AccessTokenRequestContext: RequestContext {
    /// The validated token; `nil` before ``BearerTokenMiddleware`` ran.
    var accessToken: ValidatedAccessToken? { get set }
}

extension AccessTokenRequestContext {
    /// The validated token.
    ///
    /// - Throws: ``BearerChallenge`` (401) when no ``BearerTokenMiddleware`` validated one for this route.
    public func requireAccessToken() throws -> ValidatedAccessToken {
        guard let accessToken else { throw BearerChallenge.missingToken }
        return accessToken
    }
}
