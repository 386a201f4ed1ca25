import Foundation

/// When a managed identity request is sent again, and after how long: MSAL.NET's policies.
///
/// IMDS: 404, 408, 410, 429, 5xx and no answer (refused, timed out) are retried up to ``maximumRetries`` times
/// after 1, 2, 4… seconds; 410 (IMDS restarting, "available within 70 seconds") up to 7 times, 10 seconds apart.
/// The other sources: 404, 408, 429, 500, 503, 504 and no answer, up to ``maximumRetries`` times, at least 1
/// second apart. A `Retry-After` lengthens a pause; one longer than ``maximumRetryAfter`` ends the retries.
public struct ManagedIdentityRetryPolicy: Sendable {
    /// Retries after the first attempt (410 from IMDS has its own bound).
    public var maximumRetries: Int
    /// The longest `Retry-After` waited for.
    public var maximumRetryAfter: Duration

    /// A policy; the default is MSAL.NET's.
    public init(maximumRetries: Int = 3, maximumRetryAfter: Duration = .seconds(60)) {
        self.maximumRetries = maximumRetries
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// No retries: every failure is reported at once.
    public static let none = ManagedIdentityRetryPolicy(maximumRetries: 0)

    private static let imdsStatuses: Set<Int> = [404, 408, 410, 429]
    private static let otherStatuses: Set<Int> = [404, 408, 429, 500, 503, 504]
    private static let goneRetries = 7

    /// The pause before retry number `retry` (0 for the first), or `nil` when the request is not retried.
    ///
    /// - Parameters:
    ///   - status: the answer's status, `nil` when there was no answer.
    ///   - retryAfter: the answer's `Retry-After`, in seconds.
    func pause(beforeRetry retry: Int, source: ManagedIdentitySource, status: Int?, retryAfter: TimeInterval?)
        -> Duration?
    {
        guard maximumRetries > 0 else { return nil }
        let suggested = retryAfter.map { Duration.milliseconds(Int64(($0 * 1000).rounded(.up))) }
        if let suggested, suggested > maximumRetryAfter { return nil }
        let pause: Duration
        if source == .imds {
            if status == 410 {
                guard retry < Self.goneRetries else { return nil }
                pause = .seconds(10)
            } else {
                guard retry < maximumRetries, status.map({ Self.imdsStatuses.contains($0) || $0 >= 500 }) ?? true
                else { return nil }
                pause = .seconds(1 << min(retry, 5))
            }
        } else {
            guard retry < maximumRetries, status.map(Self.otherStatuses.contains) ?? true else { return nil }
            pause = .seconds(1)
        }
        return max(pause, suggested ?? .zero)
    }
}

extension ManagedIdentityRetryPolicy {
    /// This policy as ``WireSender`` applies it to requests to `source`'s endpoint.
    func retries(for source: ManagedIdentitySource) -> some WireRetryPolicy {
        SourceRetries(policy: self, source: source)
    }

    /// A 200 is final; another answer is judged by its status and `Retry-After`, no answer as a failure without
    /// a status.
    private struct SourceRetries: WireRetryPolicy {
        let policy: ManagedIdentityRetryPolicy
        let source: ManagedIdentitySource

        func pause(beforeRetry retry: Int, after outcome: WireOutcome) -> Duration? {
            switch outcome {
            case .answered(let response, _, let retryAfter):
                guard response.status != .ok else { return nil }
                return policy.pause(
                    beforeRetry: retry, source: source, status: response.status.code, retryAfter: retryAfter)
            case .unanswered:
                return policy.pause(beforeRetry: retry, source: source, status: nil, retryAfter: nil)
            }
        }
    }
}
