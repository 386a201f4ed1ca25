import Foundation

/// Receives the authorization response the browser is redirected to after an interactive sign-in.
/// ``LoopbackRedirectReceiver`` listens on 127.0.0.1; an app with another way (a custom URL scheme, an
/// embedded web view) supplies its own in ``PublicClientApplicationConfiguration/redirectReceiver``.
public protocol RedirectReceiver: Sendable {
    /// Listens for the response at `redirectURI`, calls `begin` once listening with the redirect URI the
    /// authorization request must name, and answers with the response. Stops listening before it returns
    /// or throws.
    ///
    /// - Throws: ``MSALError`` `invalidRedirectURI` for a redirect URI it cannot receive at, `timedOut` when
    ///   nothing arrives within `timeout`; what `begin` throws; `CancellationError` when cancelled.
    func receiveResponse(
        at redirectURI: String, timeout: Duration, begin: @Sendable (_ redirectURI: String) async throws -> Void
    ) async throws -> AuthorizationResponse

    /// As ``receiveResponse(at:timeout:begin:)``, for the sign-in whose request carries `state`: a receiver that can
    /// answer more than one request ignores those with another `state` (or none), which another process or a web page
    /// may send first, and keeps waiting for the real one. The default ignores nothing and leaves the check to the
    /// flow.
    func receiveResponse(
        at redirectURI: String, state: String, timeout: Duration,
        begin: @Sendable (_ redirectURI: String) async throws -> Void
    ) async throws -> AuthorizationResponse
}

extension RedirectReceiver {
    /// Receives without looking at `state`; the flow checks it.
    public func receiveResponse(
        at redirectURI: String, state: String, timeout: Duration,
        begin: @Sendable (_ redirectURI: String) async throws -> Void
    ) async throws -> AuthorizationResponse {
        try await receiveResponse(at: redirectURI, timeout: timeout, begin: begin)
    }
}

/// What the browser brought back to the redirect URI.
public struct AuthorizationResponse: Sendable, Equatable {
    /// The redirect URI the authorization request named; the code is redeemed with the same one.
    public let redirectURI: String
    /// `code`, `state`, `client_info`, or `error`, `error_description`…
    public let parameters: [String: String]

    /// A response received at `redirectURI`.
    public init(redirectURI: String, parameters: [String: String]) {
        self.redirectURI = redirectURI
        self.parameters = parameters
    }
}
