import Foundation
import HTTPTypes
import Logging

/// The one place requests to the identity platform and to managed identity endpoints pass through on their way to
/// the transport. Each attempt runs in an `msal.http` span with the request metrics (``Telemetry/request(_:_:)``)
/// and a debug line (method, path, attempt; never the query, headers or body); the answer's body is bounded by
/// ``maximumResponseSize`` whatever transport the app gave; `Retry-After` is read here; and the request is sent
/// again as its client's ``WireRetryPolicy`` says, each retry logged as a warning. Headers and what an answer
/// means belong to the clients (``IdentityPlatformClient``, ``ManagedIdentityClient``).
@usableFromInline
struct WireSender: Sendable {
    /// The largest body accepted from any transport, 4 MiB; also ``DefaultHTTPTransport``'s own cap by default.
    @usableFromInline static let maximumResponseSize = 4 << 20

    let transport: any HTTPTransport
    /// Turns an HTTP-date `Retry-After` into seconds.
    let clock: any TimeSource
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger
    /// Who answers, as log lines name it: `identity platform`, `managed identity endpoint`.
    let peer: String
    /// Added to every log line, e.g. the managed identity source.
    var metadata: Logger.Metadata = [:]

    /// Sends `request` with `body`, again while `policy` asks for it, and returns the last answer, whatever its
    /// status, with its body.
    ///
    /// - Throws: ``MSALError`` `invalidResponse` for a body over ``maximumResponseSize``; the transport's
    ///   ``MSALError`` when no answer arrived and `policy` retries no more; `CancellationError` while waiting to
    ///   retry.
    func send(_ request: HTTPRequest, body: Data?, retrying policy: some WireRetryPolicy) async throws
        -> (HTTPResponse, Data)
    {
        var retry = 0
        while true {
            logger.debug(
                "\(peer) request",
                metadata: metadata.merging(
                    [
                        "method": "\(request.method.rawValue)",
                        "path": "\(UserRealm.loggedPath(request.url?.path ?? ""))",
                        "attempt": "\(retry + 1)",
                    ], uniquingKeysWith: { $1 }))
            let outcome: WireOutcome
            do {
                let (response, answer) = try await Telemetry.request(request) { sent in
                    try await bounded(transport.send(sent, body: body), sent.url)
                }
                outcome = .answered(response, answer, retryAfter: retryAfter(response))
            } catch let error as MSALError
                where error.internalCode == .timedOut || error.internalCode == .transportFailed
            {
                outcome = .unanswered(error)
            }
            guard let pause = policy.pause(beforeRetry: retry, after: outcome) else {
                switch outcome {
                case .answered(let response, let answer, _): return (response, answer)
                case .unanswered(let error): throw error
                }
            }
            switch outcome {
            case .answered(let response, _, _):
                logger.warning(
                    "\(peer) answered an error; retrying",
                    metadata: metadata.merging(
                        ["status": "\(response.status.code)", "pause": "\(pause)"], uniquingKeysWith: { $1 }))
            case .unanswered:
                logger.warning(
                    "\(peer) did not answer; retrying",
                    metadata: metadata.merging(["pause": "\(pause)"], uniquingKeysWith: { $1 }))
            }
            try await sleep(pause)
            retry += 1
        }
    }

    /// `response`'s `Retry-After` in seconds.
    func retryAfter(_ response: HTTPResponse) -> TimeInterval? {
        RetryAfter.seconds(in: response, now: clock.now())
    }

    private func bounded(_ answer: (HTTPResponse, Data), _ url: URL?) throws -> (HTTPResponse, Data) {
        guard answer.1.count <= Self.maximumResponseSize else {
            throw MSALError.internal(
                .invalidResponse,
                "The response from \(url?.host ?? "the server") exceeds \(Self.maximumResponseSize) bytes.")
        }
        return answer
    }
}
