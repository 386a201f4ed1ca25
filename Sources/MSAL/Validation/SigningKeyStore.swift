import Crypto
import Foundation
import _CryptoExtras

/// Issuers' signing keys (by `jwks_uri`) and the OpenID configurations that say where they are (by authority), fetched
/// through the ``IdentityPlatformClient`` on first use and kept under one ``Policy`` for ID tokens and access tokens
/// alike: what is older than ``Policy/maximumAge`` is fetched again before use; a token naming a `kid` the keys lack (a
/// rollover) fetches them again, but at most once per ``Policy/refetchInterval``, so a flood of made-up key ids costs
/// one request per interval, not one each; after a failed fetch, asking again within ``Policy/failureBackoff`` fails at
/// once with the same error; concurrent callers share one fetch.
actor SigningKeyStore {
    /// When kept documents are fetched again.
    struct Policy: Sendable {
        /// The age after which keys and configurations are fetched again before use (24 hours).
        var maximumAge: TimeInterval = 24 * 3600
        /// The least time between two fetches of a key set caused by unknown key ids (5 minutes).
        var refetchInterval: TimeInterval = 300
        /// After a failed fetch, how long asking again fails at once (5 seconds).
        var failureBackoff: TimeInterval = 5
    }

    /// Why no key or configuration came out.
    enum Failure: Error {
        /// The key set lacks the `kid`: just fetched (`refetched`), or fetched less than the refetch interval ago.
        case unknownKey(refetched: Bool)
        /// The fetch failed with `error`, now or, when `recent`, less than the failure backoff ago.
        case unavailable(any Error, recent: Bool)
    }

    /// One document kept: its value, when it was fetched, the last failure and the fetch in flight.
    private final class Slot<Value: Sendable> {
        var value: Value?
        var fetchedAt: Date?
        var failure: (error: any Error, at: Date)?
        var fetching: Task<Value, any Error>?
        var fetches = 0
    }

    let policy: Policy
    private let client: IdentityPlatformClient
    private let clock: any TimeSource
    private var keySets: [URL: Slot<[String: _RSA.Signing.PublicKey]>] = [:]
    private var configurations: [URL: Slot<IssuerMetadata>] = [:]

    init(client: IdentityPlatformClient, clock: any TimeSource, policy: Policy = Policy()) {
        self.client = client
        self.clock = clock
        self.policy = policy
    }

    /// The RSA key `kid` of the key set at `jwksURI`.
    ///
    /// - Throws: ``Failure``.
    func key(_ kid: String, jwksURI: URL) async throws(Failure) -> _RSA.Signing.PublicKey {
        let slot = slot(jwksURI, in: &keySets)
        let age = self.age(slot)
        if let keys = slot.value, age < policy.maximumAge {
            if let key = keys[kid] { return key }
            if age < policy.refetchInterval { throw .unknownKey(refetched: false) }
        }
        let client = client
        let keys = try await fetch(slot) { try await client.signingKeys(jwksURI).rsaKeys }
        guard let key = keys[kid] else { throw .unknownKey(refetched: true) }
        return key
    }

    /// The issuer and key-set location of `authority`, from its OpenID configuration.
    ///
    /// - Throws: ``Failure/unavailable(_:recent:)``.
    func issuerMetadata(_ authority: Authority) async throws(Failure) -> IssuerMetadata {
        let slot = slot(authority.discoveryURL, in: &configurations)
        if let metadata = slot.value, age(slot) < policy.maximumAge { return metadata }
        let client = client
        return try await fetch(slot) {
            try IssuerMetadata(document: try await client.openIDConfiguration(authority), authority: authority)
        }
    }

    /// How many fetches of the key set at `jwksURI` were started (for tests of the policy).
    func keySetFetches(_ jwksURI: URL) -> Int { keySets[jwksURI]?.fetches ?? 0 }

    private func slot<Value>(_ url: URL, in slots: inout [URL: Slot<Value>]) -> Slot<Value> {
        if let slot = slots[url] { return slot }
        let slot = Slot<Value>()
        slots[url] = slot
        return slot
    }

    private func age<Value>(_ slot: Slot<Value>) -> TimeInterval {
        slot.fetchedAt.map { clock.now().timeIntervalSince($0) } ?? .infinity
    }

    /// Joins the fetch in flight, or fails at once within the backoff of the last failure, or fetches.
    private func fetch<Value>(
        _ slot: Slot<Value>, _ download: @escaping @Sendable () async throws -> Value
    ) async throws(Failure) -> Value {
        if let fetching = slot.fetching {
            do { return try await fetching.value } catch { throw .unavailable(error, recent: false) }
        }
        if let failure = slot.failure, clock.now().timeIntervalSince(failure.at) < policy.failureBackoff {
            throw .unavailable(failure.error, recent: true)
        }
        let task = Task { try await download() }
        slot.fetching = task
        slot.fetches += 1
        defer { slot.fetching = nil }
        do {
            let value = try await task.value
            slot.value = value
            slot.fetchedAt = clock.now()
            slot.failure = nil
            return value
        } catch {
            slot.failure = (error, clock.now())
            throw .unavailable(error, recent: false)
        }
    }
}
