import Foundation

/// MSAL.NET's retry policy for the identity platform (`protocol.md` §3.5): one retry at most, of a 429 or 5xx whose
/// `Retry-After` is at most ``maximumRetryAfter`` (after that long), or of a 5xx without one (after
/// ``serverErrorRetryDelay``). A longer `Retry-After` is reported, and so is no answer at all.
struct IdentityPlatformRetryPolicy: WireRetryPolicy {
    /// The longest `Retry-After` waited for before retrying once; longer ones are reported.
    static let maximumRetryAfter: TimeInterval = 5
    /// The wait before retrying a 5xx that names none.
    static let serverErrorRetryDelay: Duration = .milliseconds(500)

    func pause(beforeRetry retry: Int, after outcome: WireOutcome) -> Duration? {
        guard retry == 0, case .answered(let response, _, let retryAfter) = outcome else { return nil }
        let status = response.status.code
        guard status >= 500 || status == 429 else { return nil }
        guard let retryAfter else { return status >= 500 ? Self.serverErrorRetryDelay : nil }
        return retryAfter <= Self.maximumRetryAfter ? .milliseconds(Int(retryAfter * 1000)) : nil
    }
}
