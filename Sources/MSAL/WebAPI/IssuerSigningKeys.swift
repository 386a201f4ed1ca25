import Crypto
import Foundation
import OutsideJSON
import _CryptoExtras

/// An authority's issuer and signing keys for validating access tokens, fetched on first use over the
/// transport: the OpenID configuration (its `issuer`, possibly with `{tenantid}`, and `jwks_uri`), then the key
/// set. Keys are fetched again after ``maximumAge``, and when a token names an unknown `kid` (key rollover), but
/// then at most once per ``refetchInterval``: a flood of tokens with made-up key ids costs one request per
/// interval, not one each.
actor IssuerSigningKeys {
    struct Metadata: Sendable {
        /// `issuer` from the configuration document, `{tenantid}` left in for multi-tenant authorities.
        let issuer: String
        let jwksURI: URL
    }

    static let maximumAge: TimeInterval = 24 * 3600
    /// After a failed fetch, how long validations fail at once instead of asking again.
    static let failureBackoff: TimeInterval = 5

    private let discoveryURL: URL
    private let transport: any HTTPTransport
    private let clock: any TimeSource
    private let refetchInterval: TimeInterval
    private var metadata: Metadata?
    private var keys: [String: _RSA.Signing.PublicKey] = [:]
    private var fetchedAt: Date?
    private var failedAt: Date?
    /// The fetch in flight, which concurrent validations share.
    private var fetching: Task<Void, any Error>?

    init(discoveryURL: URL, transport: any HTTPTransport, clock: any TimeSource, refetchInterval: TimeInterval) {
        self.discoveryURL = discoveryURL
        self.transport = transport
        self.clock = clock
        self.refetchInterval = refetchInterval
    }

    /// How many times the key set was fetched (for tests of the rate limit).
    private(set) var fetches = 0

    /// The authority's issuer and key-set location.
    ///
    /// - Throws: ``AccessTokenRejection`` `keysUnavailable` when the configuration cannot be fetched.
    func issuerMetadata() async throws -> Metadata {
        if let metadata { return metadata }
        try await fetch()
        return metadata!
    }

    /// The key `kid`, fetching the key set when it is older than ``maximumAge`` or lacks `kid` and was not
    /// fetched within ``refetchInterval``.
    ///
    /// - Throws: ``AccessTokenRejection`` `unknownKey` or `keysUnavailable`.
    func key(_ kid: String) async throws -> _RSA.Signing.PublicKey {
        let now = clock.now()
        let age = fetchedAt.map { now.timeIntervalSince($0) } ?? .infinity
        if let key = keys[kid], age < Self.maximumAge { return key }
        if age >= refetchInterval || fetchedAt == nil {
            try await fetch()
        }
        guard let key = keys[kid] else {
            throw AccessTokenRejection(.unknownKey, "The token is signed with a key the authority does not publish.")
        }
        return key
    }

    private func fetch() async throws {
        if let fetching { return try await fetching.value }
        if let failedAt, clock.now().timeIntervalSince(failedAt) < Self.failureBackoff {
            throw AccessTokenRejection(
                .keysUnavailable, "The authority's signing keys could not be fetched a moment ago.")
        }
        let task = Task { try await self.download() }
        fetching = task
        defer { fetching = nil }
        do {
            try await task.value
            failedAt = nil
        } catch {
            failedAt = clock.now()
            throw error
        }
    }

    private func download() async throws {
        let configuration: [String: Any]
        do {
            configuration = try JSONLimits.message.object(try await get(discoveryURL))
        } catch let refusal as JSONRefusal {
            throw AccessTokenRejection(
                .keysUnavailable, "The OpenID configuration at \(discoveryURL.absoluteString) \(refusal).")
        }
        guard let issuer = configuration["issuer"] as? String,
            let jwks = (configuration["jwks_uri"] as? String).flatMap({ URL(string: $0) })
        else {
            throw AccessTokenRejection(
                .keysUnavailable,
                "The OpenID configuration at \(discoveryURL.absoluteString) has no issuer or jwks_uri.")
        }
        let set: JSONWebKeySet
        do {
            set = try JSONWebKeySet(json: try await get(jwks), uri: jwks)
        } catch let error as MSALError {
            throw AccessTokenRejection(.keysUnavailable, error.message)
        }
        metadata = Metadata(issuer: issuer, jwksURI: jwks)
        keys = set.rsaKeys
        fetchedAt = clock.now()
        fetches += 1
    }

    private func get(_ url: URL) async throws -> Data {
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(method: .get, url: url))
        } catch {
            throw AccessTokenRejection(.keysUnavailable, "\(url.absoluteString) could not be reached: \(error)")
        }
        guard response.status == 200 else {
            throw AccessTokenRejection(.keysUnavailable, "\(url.absoluteString) answered HTTP \(response.status).")
        }
        return response.body
    }
}
