import Foundation

/// The one way a cached token is returned or renewed, for every grant whose token the cache may hold (silent
/// refresh, client credentials, on-behalf-of, managed identity): the grant's cache lookup; the token returned while
/// usable (``TokenFreshness``); renewed ahead of time when the identity platform asked (`refresh_in`), the cached token
/// returned if that fails; otherwise one request per grant key in this process and, with a shared store, per
/// partition across processes (its refresh lock), the cache read again under the lock, then the grant's request.
///
/// The lookup's functions are `nonisolated(nonsending)`: a cache hit runs on its caller's executor, with no executor
/// check at each step.
struct TokenAcquisition: Sendable {
    let clock: any TimeSource
    /// Cached access tokens with less than this left are not used (seconds).
    let expirationBuffer: TimeInterval
    let log: PrivacyLogger
    /// Requests in flight for users' tokens.
    let userTokens = SingleFlight<AuthenticationResult>()
    /// Requests in flight for app tokens (client credentials, managed identity).
    let appTokens = SingleFlight<AppTokenResult>()

    /// The grant's token: from the cache unless `bypassingCache` (a forced refresh or a claims request), else from
    /// the grant's request.
    nonisolated(nonsending) func token<Grant: CachedTokenGrant>(_ grant: Grant, bypassingCache: Bool) async throws
        -> Grant.Token
    {
        try await token(bypassingCache: bypassingCache, cached: { try await grant.cachedToken($0) }, grant: { grant })
    }

    /// The same, for a caller whose values the lookup reads in place: `cached` is the grant's own lookup, and the
    /// grant is made only when the request must go online, so a cache hit copies none of the caller's values.
    nonisolated(nonsending) func token<Grant: CachedTokenGrant>(
        bypassingCache: Bool,
        cached lookup: nonisolated(nonsending) (TokenFreshness) async throws -> CachedToken<Grant.Token>?,
        grant makeGrant: () -> Grant
    ) async throws -> Grant.Token {
        let freshness = freshness()
        if !bypassingCache, let cached = try await lookup(freshness) {
            guard freshness.isRefreshDue(cached.refreshOn) else { return cached.token }
            do {
                return try await request(makeGrant(), bypassingCache: false)
            } catch let error as MSALError where error.code != .serverDeclinedScopes {
                log.warning("renewing a token ahead of time failed; using the cached one", ["error": "\(error.code)"])
                return cached.token
            }
        }
        return try await request(makeGrant(), bypassingCache: bypassingCache)
    }

    /// Whether cached tokens are usable now.
    func freshness() -> TokenFreshness { TokenFreshness(now: clock.now(), expirationBuffer: expirationBuffer) }

    /// One request per key at a time; a caller that waited finds the token the request stored, as does a
    /// process that waited for another's lock.
    private func request<Grant: CachedTokenGrant>(_ grant: Grant, bypassingCache: Bool) async throws -> Grant.Token {
        let key = "\(Grant.self)|\(grant.flightKey)|\(bypassingCache)"
        return try await self[keyPath: Grant.flights].run(key) {
            try await whileLocked(grant) {
                if !bypassingCache, let cached = try await grant.cachedToken(freshness()),
                    !freshness().isRefreshDue(cached.refreshOn)
                {
                    return cached.token
                }
                return try await grant.redeem()
            }
        }
    }

    private func whileLocked<Grant: CachedTokenGrant>(
        _ grant: Grant, _ body: @Sendable () async throws -> Grant.Token
    ) async throws -> Grant.Token {
        guard let (cache, partition) = grant.lockedPartition else { return try await body() }
        return try await cache.whileRefreshing(partition, body)
    }
}

/// A grant whose token the cache may already hold: what to look up and what to send; ``TokenAcquisition`` does
/// the rest.
protocol CachedTokenGrant: Sendable {
    associatedtype Token: Sendable
    /// The requests in flight for this kind of token.
    static var flights: KeyPath<TokenAcquisition, SingleFlight<Token>> { get }
    /// What identifies the request among concurrent ones of its kind: callers with one key share one request.
    var flightKey: String { get }
    /// The partition whose refresh lock is held while the request runs; `nil` for a cache without partitions.
    var lockedPartition: (PartitionedTokenCache, TokenCachePartition)? { get }
    /// The cached token, if one is usable by `freshness`.
    nonisolated(nonsending) func cachedToken(_ freshness: TokenFreshness) async throws -> CachedToken<Token>?
    /// Sends the grant's request and stores what it returns.
    func redeem() async throws -> Token
}

/// A token found in the cache, and when the identity platform asked for it to be renewed.
struct CachedToken<Token: Sendable>: Sendable {
    let token: Token
    let refreshOn: Date?
}
