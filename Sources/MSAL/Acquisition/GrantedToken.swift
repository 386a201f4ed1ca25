import Foundation

/// An access token as a grant returned it (a token response, a managed identity's answer), before it is filed:
/// its lifetimes are relative to when it arrived.
struct GrantedToken: Sendable {
    let accessToken: String
    /// Seconds until it expires.
    let expiresIn: TimeInterval
    /// Seconds until it expires for use during an outage (`ext_expires_in`); `expiresIn` when not given.
    let extendedExpiresIn: TimeInterval
    /// Seconds until it should be renewed (`refresh_in`), when the source said so.
    let refreshIn: TimeInterval?

    /// The cache entry of this token, received at `now`.
    func entry(
        at now: Date, homeAccountID: String, environment: String, clientID: String, realm: String, target: String,
        extra: [String: CacheValue] = [:]
    ) -> AccessTokenEntry {
        AccessTokenEntry(
            homeAccountID: homeAccountID, environment: environment, clientID: clientID, realm: realm, target: target,
            secret: accessToken, cachedAt: now, expiresOn: now.addingTimeInterval(expiresIn),
            extendedExpiresOn: now.addingTimeInterval(extendedExpiresIn),
            refreshOn: refreshIn.map { now.addingTimeInterval($0) }, extra: extra)
    }
}

extension GrantedToken {
    /// The access token of a token-endpoint answer.
    init(_ response: TokenResponse) {
        self.init(
            accessToken: response.accessToken, expiresIn: TimeInterval(response.expiresIn),
            extendedExpiresIn: TimeInterval(response.extExpiresIn ?? response.expiresIn),
            refreshIn: response.refreshIn.map(TimeInterval.init))
    }
}
