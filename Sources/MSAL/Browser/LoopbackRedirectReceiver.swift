import Foundation

/// Receives the authorization response on a loopback redirect URI such as `http://localhost` (RFC 8252 §7.3):
/// a one-shot listener on 127.0.0.1, on the URI's port or, without one, on any free port, which the
/// authorization request then names.
public struct LoopbackRedirectReceiver: RedirectReceiver {
    /// A receiver for `http://localhost`, `http://127.0.0.1` and `http://[::1]` redirect URIs.
    public init() {}

    /// Listens on 127.0.0.1 at the redirect URI's port and path, calls `begin` with the URI listened at, and
    /// answers with the first request there that carries `code` or `error` (query or `form_post`).
    ///
    /// - Throws: ``MSALError`` `invalidRedirectURI` unless the URI is `http` on a loopback host,
    ///   `transportFailed` when the port cannot be bound, `timedOut`; what `begin` throws; `CancellationError`.
    public func receiveResponse(
        at redirectURI: String, timeout: Duration, begin: @Sendable (_ redirectURI: String) async throws -> Void
    ) async throws -> AuthorizationResponse {
        try await receive(at: redirectURI, state: nil, timeout: timeout, begin: begin)
    }

    /// As ``receiveResponse(at:timeout:begin:)``, but a request whose `state` is not `state` (or that has none) is
    /// answered with an error page and ignored: the listener keeps waiting for the real redirect until `timeout`.
    public func receiveResponse(
        at redirectURI: String, state: String, timeout: Duration,
        begin: @Sendable (_ redirectURI: String) async throws -> Void
    ) async throws -> AuthorizationResponse {
        try await receive(at: redirectURI, state: state, timeout: timeout, begin: begin)
    }

    private func receive(
        at redirectURI: String, state: String?, timeout: Duration,
        begin: @Sendable (_ redirectURI: String) async throws -> Void
    ) async throws -> AuthorizationResponse {
        guard var redirect = URLComponents(string: redirectURI), redirect.scheme == "http",
            isLoopbackHost(redirect.host?.lowercased() ?? "")
        else {
            throw MSALError.internal(
                .invalidRedirectURI,
                "The loopback redirect receiver needs an http redirect URI on a loopback host, such as http://localhost; got \(redirectURI)."
            )
        }
        let listener = try await LoopbackRedirectListener.start(
            path: redirect.path.isEmpty ? "/" : redirect.path, port: redirect.port ?? 0, expectedState: state)
        do {
            redirect.port = listener.port
            let listening = redirect.string!
            try await begin(listening)
            let parameters = try await listener.redirect(timeout: timeout)
            await listener.close()
            return AuthorizationResponse(redirectURI: listening, parameters: parameters)
        } catch {
            await listener.close()
            throw error
        }
    }
}
