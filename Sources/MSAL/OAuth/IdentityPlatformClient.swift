import Foundation
import Logging

/// The one way requests reach the identity platform: token, device code, native auth, OpenID discovery,
/// instance discovery and signing keys. Every request carries the same headers (`client-request-id`,
/// `return-client-request-id`, ``LibraryIdentity``) and gets the same retry policy; the typed operations
/// (in the extensions) turn answers into responses or ``MSALError``. The transport sets the timeouts.
struct IdentityPlatformClient: Sendable {
    /// The longest `Retry-After` waited for before retrying once; longer ones are reported.
    static let maximumRetryAfter: TimeInterval = 5
    /// The wait before retrying a 5xx that names none.
    static let serverErrorRetryDelay: Duration = .milliseconds(500)

    let transport: any HTTPTransport
    /// Turns an HTTP-date `Retry-After` into seconds.
    let clock: any TimeSource
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger
    /// Ids for the requests no flow correlates (discovery, signing keys).
    let correlationIDs: CorrelationIDs
    /// Token requests the identity platform asked not to repeat yet.
    let throttle = TokenThrottle()

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

    /// Sends with MSAL's headers and answers with the response for any status, after at most one retry: a
    /// 429 or 5xx is sent again once when its `Retry-After` is at most ``maximumRetryAfter``, and a 5xx
    /// without one after ``serverErrorRetryDelay`` (MSAL.NET's policy, `protocol.md` §3.5).
    ///
    /// - Throws: ``MSALError`` when no response arrived; `CancellationError` while waiting to retry.
    private func send(_ request: HTTPRequest, correlationID: UUID) async throws -> HTTPResponse {
        var request = request
        request.headers += [
            ("Accept", "application/json"), ("client-request-id", correlationID.uuidString.lowercased()),
            ("return-client-request-id", "true"),
        ]
        request.headers += LibraryIdentity.headers
        var attempt = 1
        while true {
            logger.debug(
                "identity platform request",
                metadata: [
                    "method": "\(request.method.rawValue)", "path": "\(request.url.path)", "attempt": "\(attempt)",
                ])
            let response = try await Telemetry.request(request) { try await transport.send($0) }
            guard attempt == 1, let delay = retryDelay(response) else { return response }
            try await sleep(delay)
            attempt += 1
        }
    }

    private func retryDelay(_ response: HTTPResponse) -> Duration? {
        guard response.status >= 500 || response.status == 429 else { return nil }
        guard let retryAfter = retryAfter(response) else {
            return response.status >= 500 ? Self.serverErrorRetryDelay : nil
        }
        return retryAfter <= Self.maximumRetryAfter ? .milliseconds(Int(retryAfter * 1000)) : nil
    }

    /// The response's `Retry-After` in seconds.
    func retryAfter(_ response: HTTPResponse) -> TimeInterval? {
        response.header("Retry-After").flatMap { RetryAfter.seconds($0, now: clock.now()) }
    }
}
