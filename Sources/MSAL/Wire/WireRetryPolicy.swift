import Foundation
import HTTPTypes

/// What one attempt at a request came to, for a ``WireRetryPolicy`` to judge.
enum WireOutcome: Sendable {
    /// The server answered, whatever the status; `retryAfter` is its `Retry-After` in seconds, when readable.
    case answered(HTTPResponse, Data, retryAfter: TimeInterval?)
    /// No answer arrived: the transport's ``MSALError`` `timedOut` or `transportFailed`.
    case unanswered(MSALError)
}

/// When ``WireSender`` sends a request again, and after how long. Each client plugs in its own:
/// ``IdentityPlatformRetryPolicy`` for the identity platform, ``ManagedIdentityRetryPolicy`` (for one source) for
/// managed identity.
protocol WireRetryPolicy: Sendable {
    /// The pause before retry number `retry` (0 for the first) after `outcome`, or `nil` when `outcome` is final.
    func pause(beforeRetry retry: Int, after outcome: WireOutcome) -> Duration?
}
