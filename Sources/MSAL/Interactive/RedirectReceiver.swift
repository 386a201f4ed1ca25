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
