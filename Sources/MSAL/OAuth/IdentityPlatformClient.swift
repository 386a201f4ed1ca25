import Foundation
import Logging

/// The one way requests reach the identity platform: token, device code, native auth, OpenID discovery,
/// instance discovery and signing keys. Every request carries the same headers (`client-request-id`,
/// `return-client-request-id`, ``LibraryIdentity``) and goes through ``WireSender`` with
/// ``IdentityPlatformRetryPolicy``; the typed operations (in the extensions) turn answers into responses or
/// ``MSALError``. The transport sets the timeouts.
struct IdentityPlatformClient: Sendable {
    let transport: any HTTPTransport
    /// Turns an HTTP-date `Retry-After` into seconds.
    let clock: any TimeSource
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger
    /// Ids for the requests no flow correlates (discovery, signing keys).
    let correlationIDs: CorrelationIDs
    /// Token requests the identity platform asked not to repeat yet.
    let throttle = TokenThrottle()

    private var wire: WireSender {
        WireSender(transport: transport, clock: clock, sleep: sleep, logger: logger, peer: "identity platform")
    }

    /// Posts a form.
    func post(_ form: [(String, String)], to url: URL, correlationID: UUID) async throws -> HTTPResponse {
        try await send(
            HTTPRequest(
                method: .post, url: url,
                headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
                body: Data(FormEncoding.encode(form).utf8)),
            correlationID: correlationID)
    }

    /// Gets a JSON document.
    func get(_ url: URL, correlationID: UUID) async throws -> HTTPResponse {
        try await send(HTTPRequest(method: .get, url: url), correlationID: correlationID)
    }

    /// Sends with MSAL's headers and answers with the response for any status, after at most one retry
    /// (``IdentityPlatformRetryPolicy``).
    ///
    /// - Throws: ``MSALError`` when no response arrived or its body is too large; `CancellationError` while
    ///   waiting to retry.
    private func send(_ request: HTTPRequest, correlationID: UUID) async throws -> HTTPResponse {
        var request = request
        request.headers += [
            ("Accept", "application/json"), ("client-request-id", correlationID.uuidString.lowercased()),
            ("return-client-request-id", "true"),
        ]
        request.headers += LibraryIdentity.headers
        return try await wire.send(request, retrying: IdentityPlatformRetryPolicy())
    }

    /// The response's `Retry-After` in seconds.
    func retryAfter(_ response: HTTPResponse) -> TimeInterval? {
        wire.retryAfter(response)
    }
}
