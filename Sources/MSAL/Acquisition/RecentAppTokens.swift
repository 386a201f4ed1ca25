import Foundation
import Locking

/// The app token last returned for each scope list, as the caller wrote it, while it is usable: a repeated
/// `acquireTokenForClient` costs one lock and one lookup instead of discovery and the partition's index.
/// Only tokens the cache or the identity platform just returned go in, and each is returned only while
/// ``TokenFreshness`` would return it from the cache, so it never outlives what the cache itself would return.
final class RecentAppTokens: Sendable {
    /// More scope lists than this in use at once is unusual; the memory is then cleared.
    static let capacity = 64

    private let tokens = Locked<[[String]: (result: AppTokenResult, rememberedAt: Date)]>([:])

    func token(for scopes: [String], _ freshness: TokenFreshness) -> AppTokenResult? {
        guard let recent = tokens.withLock({ $0[scopes] }),
            freshness.isUsable(expiresOn: recent.result.expiresOn, cachedAt: recent.rememberedAt),
            !freshness.isRefreshDue(recent.result.refreshOn)
        else { return nil }
        return recent.result
    }

    func remember(_ result: AppTokenResult, for scopes: [String], at now: Date) {
        tokens.withLock { tokens in
            if tokens.count >= Self.capacity, tokens[scopes] == nil { tokens.removeAll(keepingCapacity: true) }
            tokens[scopes] = (result, now)
        }
    }
}
