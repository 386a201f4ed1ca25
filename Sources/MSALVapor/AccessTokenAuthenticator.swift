import Logging
import MSAL
import Vapor

/// Authenticates the caller of a protected API: the `Authorization: Bearer` token, validated by MSAL's
/// ``AccessTokenValidator`` (v1 and v2 tokens, workforce and External ID issuers, the tenant allow-list), logs an
/// ``AccessTokenPrincipal`` into `req.auth`.
///
/// As Vapor's authenticators do, it never throws for a missing or refused token: the route's
/// ``AccessTokenGuardMiddleware`` answers those with the Bearer challenge (401, or 503 when the authority's keys
/// cannot be fetched). A refused token's reason goes to the log, never the token.
///
///     app.msal.accessTokens = try AccessTokenValidator(authority: authority, audiences: [clientID])
///     let api = app.grouped(AccessTokenAuthenticator(), AccessTokenGuardMiddleware())
public struct AccessTokenAuthenticator: AsyncBearerAuthenticator {
    /// The validator; `nil` uses `app.msal.accessTokens`.
    public let validator: AccessTokenValidator?

    /// An authenticator that accepts the tokens `validator` accepts (by default, `app.msal.accessTokens`'s).
    public init(validator: AccessTokenValidator? = nil) {
        self.validator = validator
    }

    /// Validates `bearer` and logs its caller in, or keeps why it was refused for the guard.
    ///
    /// - Throws: `Abort(.internalServerError)` when no validator is configured.
    public func authenticate(bearer: BearerAuthorization, for request: Request) async throws {
        guard let validator = validator ?? request.application.msal.accessTokens else {
            throw Abort(
                .internalServerError, reason: "No access token validator is configured (app.msal.accessTokens).")
        }
        do {
            request.auth.login(AccessTokenPrincipal(token: try await validator.validate(bearer.token)))
        } catch let rejection as AccessTokenRejection {
            rejection.log(to: request.logger, path: request.url.path)
            request.storage[RejectionKey.self] = rejection
        }
    }
}

/// Why this request's bearer token was refused.
struct RejectionKey: StorageKey {
    typealias Value = AccessTokenRejection
}
