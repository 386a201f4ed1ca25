import Foundation
import HTTPTypes
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

    /// Posts a form; answers with the response and its body.
    func post(_ form: [(String, String)], to url: URL, correlationID: UUID) async throws -> (HTTPResponse, Data) {
        try await send(
            HTTPRequest(
                method: .post, url: url,
                headerFields: [.contentType: "application/x-www-form-urlencoded; charset=utf-8"]),
            body: Data(FormEncoding.encode(form).utf8), correlationID: correlationID)
    }

    /// Gets a JSON document; answers with the response and its body.
    func get(_ url: URL, correlationID: UUID) async throws -> (HTTPResponse, Data) {
        try await send(HTTPRequest(method: .get, url: url), body: nil, correlationID: correlationID)
    }

    /// Sends with MSAL's headers and answers with the response for any status, after at most one retry
    /// (``IdentityPlatformRetryPolicy``).
    ///
    /// - Throws: ``MSALError`` when no response arrived or its body is too large; `CancellationError` while
    ///   waiting to retry.
    private func send(_ request: HTTPRequest, body: Data?, correlationID: UUID) async throws -> (HTTPResponse, Data) {
        var request = request
        request.headerFields.append(
            contentsOf: [
                .accept: "application/json", .clientRequestID: correlationID.uuidString.lowercased(),
                .returnClientRequestID: "true",
            ] as HTTPFields)
        request.headerFields.append(contentsOf: LibraryIdentity.headers)
        return try await wire.send(request, body: body, retrying: IdentityPlatformRetryPolicy())
    }

    /// The response's `Retry-After` in seconds.
    func retryAfter(_ response: HTTPResponse) -> TimeInterval? {
        wire.retryAfter(response)
    }
}
