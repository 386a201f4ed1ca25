import Crypto
import Foundation
import _CryptoExtras

/// The signing keys of each issuer (`jwks_uri`), fetched on first use. A token naming an unknown `kid` (a key
/// rollover) refetches them, at most once per ``refetchInterval`` per issuer, as MSAL does: a provider that sends
/// a new `kid` with every token costs one request per interval, not one per token. Concurrent callers share a fetch.
actor JWKSCache {
    /// The shortest time between two fetches of one issuer's keys.
    static let refetchInterval: TimeInterval = 300

    private struct Issuer {
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        var fetchedAt: Date?
        var fetching: Task<[String: _RSA.Signing.PublicKey], any Error>?
    }

    private let client: IdentityPlatformClient
    private let clock: any TimeSource
    private var issuers: [URL: Issuer] = [:]

    init(client: IdentityPlatformClient, clock: any TimeSource) {
        self.client = client
        self.clock = clock
    }

    /// The RSA key `kid` of `jwksURI`.
    ///
    /// - Throws: ``MSALError`` `invalidIDToken` when no such key exists after a fetch (or a fetch less than
    ///   ``refetchInterval`` ago); transport errors.
    func key(kid: String, jwksURI: URL) async throws -> _RSA.Signing.PublicKey {
        if let key = issuers[jwksURI]?.keys[kid] { return key }
        if let fetchedAt = issuers[jwksURI]?.fetchedAt, clock.now().timeIntervalSince(fetchedAt) < Self.refetchInterval
        {
            throw unknown(kid, refetched: false)
        }
        let keys = try await fetch(jwksURI)
        guard let key = keys[kid] else { throw unknown(kid, refetched: true) }
        return key
    }

    private func fetch(_ jwksURI: URL) async throws -> [String: _RSA.Signing.PublicKey] {
        if let fetching = issuers[jwksURI]?.fetching { return try await fetching.value }
        let client = client
        let task = Task { try await client.signingKeys(jwksURI).rsaKeys }
        issuers[jwksURI, default: Issuer()].fetching = task
        defer { issuers[jwksURI]?.fetching = nil }
        let keys = try await task.value
        issuers[jwksURI]?.keys = keys
        issuers[jwksURI]?.fetchedAt = clock.now()
        return keys
    }

    private func unknown(_ kid: String, refetched: Bool) -> MSALError {
        MSALError.internal(
            .invalidIDToken,
            "The ID token is signed with key '\(kid)', which the issuer does not publish"
                + (refetched ? "." : " (its keys were fetched less than five minutes ago)."))
    }
}
