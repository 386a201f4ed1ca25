import Foundation
import Locking

/// The app token last returned for each scope list, as the caller wrote it, while it is usable: a repeated
/// `acquireTokenForClient` costs one lock and one lookup instead of discovery and the partition's index.
/// Only tokens the cache or the identity platform just returned go in, and each is returned only until
/// the expiry buffer or its `refresh_in`, so it never outlives what the cache itself would return.
final class RecentAppTokens: Sendable {
    /// More scope lists than this in use at once is unusual; the memory is then cleared.
    static let capacity = 64

    private let tokens = Locked<[[String]: (result: AppTokenResult, usableUntil: Date)]>([:])

    func token(for scopes: [String], at now: Date) -> AppTokenResult? {
        guard let recent = tokens.withLock({ $0[scopes] }), now < recent.usableUntil,
            recent.result.refreshOn.map({ now < $0 }) ?? true
        else { return nil }
        return recent.result
    }

    func remember(_ result: AppTokenResult, for scopes: [String], usableUntil: Date) {
        tokens.withLock { tokens in
            if tokens.count >= Self.capacity, tokens[scopes] == nil { tokens.removeAll(keepingCapacity: true) }
            tokens[scopes] = (result, usableUntil)
        }
    }
}
