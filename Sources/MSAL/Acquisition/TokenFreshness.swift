import Foundation

/// When a cached access token is used: until the expiry buffer before it expires, and only if it was not cached
/// in the future (a clock set back by more than the skew), and when it is renewed ahead of time (`refresh_in`).
struct TokenFreshness: Sendable {
    let now: Date
    /// Cached access tokens with less than this left are not used (seconds).
    let expirationBuffer: TimeInterval

    /// A usable token expires after this.
    var usableExpiry: Date { now.addingTimeInterval(expirationBuffer) }

    /// Whether `token` may be returned.
    func isUsable(_ token: AccessTokenEntry) -> Bool {
        isUsable(expiresOn: token.expiresOn, cachedAt: token.cachedAt)
    }

    /// Whether a token that expires at `expiresOn`, cached at `cachedAt`, may be returned.
    func isUsable(expiresOn: Date, cachedAt: Date) -> Bool {
        expiresOn > usableExpiry && cachedAt <= now.addingTimeInterval(IDTokenValidator.skew)
    }

    /// Whether a token with this `refresh_in` time is due for renewal.
    func isRefreshDue(_ refreshOn: Date?) -> Bool {
        guard let refreshOn else { return false }
        return refreshOn <= now
    }
}
