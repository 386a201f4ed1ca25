import Logging
import MSAL
import Vapor

/// Authenticates the caller of a protected API: the `Authorization: Bearer` token, validated by MSAL's
/// ``AccessTokenValidator`` (v1 and v2 tokens, workforce and External ID issuers, the tenant allow-list), logs an
/// ``AccessTokenPrincipal`` into `req.auth`.
///
/// As Vapor's authenticators do, it never throws for a missing or refused token: the route's
/// ``AccessTokenGuardMiddleware`` answers those with the Bearer challenge (401, or 503 when the authority's keys
/// cannot be fetched). A refused token's reason goes to the log, never the token. A token that passed before (the
/// validator remembers it until it expires) is accepted on the request's event loop, without starting a task.
///
///     app.msal.accessTokens = try AccessTokenValidator(authority: authority, audiences: [clientID])
///     let api = app.grouped(AccessTokenAuthenticator(), AccessTokenGuardMiddleware())
public struct AccessTokenAuthenticator: RequestAuthenticator {
    /// The validator; `nil` uses `app.msal.accessTokens`.
    public let validator: AccessTokenValidator?

    /// An authenticator that accepts the tokens `validator` accepts (by default, `app.msal.accessTokens`'s).
    public init(validator: AccessTokenValidator? = nil) {
        self.validator = validator
    }

    /// Validates the request's `Authorization: Bearer` token and logs its caller in, or keeps why it was refused for
    /// the guard.
    ///
    /// - Returns: a future that fails with `Abort(.internalServerError)` when no validator is configured.
    public func authenticate(request: Request) -> EventLoopFuture<Void> {
        switch authenticateAtOnce(request) {
        case .done: request.eventLoop.makeSucceededVoidFuture()
        case .pending(let validation): validation
        }
    }

    /// How far ``authenticateAtOnce(_:)`` got on the request's event loop.
    enum Outcome {
        /// Done: the caller logged in (also returned), or `nil` when the request has no bearer token.
        case done(AccessTokenPrincipal?)
        /// The token's validation in a task, or the missing validator's error.
        case pending(EventLoopFuture<Void>)
    }

    /// Authenticates `request` on its event loop when it can (no token, or one the validator remembers); otherwise
    /// starts the token's validation in a task.
    func authenticateAtOnce(_ request: Request) -> Outcome {
        guard let token = AuthorizationHeader.bearerToken(request.headers.first(name: .authorization)) else {
            return .done(nil)
        }
        guard let validator = validator ?? request.application.msal.accessTokens else {
            return .pending(
                request.eventLoop.makeFailedFuture(
                    Abort(
                        .internalServerError, reason: "No access token validator is configured (app.msal.accessTokens)."
                    )))
        }
        if let known = validator.rememberedToken(token) {
            let caller = AccessTokenPrincipal(token: known)
            request.auth.login(caller)
            return .done(caller)
        }
        return .pending(
            request.eventLoop.makeFutureWithTask {
                do {
                    request.auth.login(AccessTokenPrincipal(token: try await validator.validate(token)))
                } catch let rejection as AccessTokenRejection {
                    rejection.log(to: request.logger, path: request.url.path)
                    request.storage[RejectionKey.self] = rejection
                }
            })
    }
}

/// Why this request's bearer token was refused.
struct RejectionKey: StorageKey {
    typealias Value = AccessTokenRejection
}
