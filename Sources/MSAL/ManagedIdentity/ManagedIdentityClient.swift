import Foundation

/// The one way managed identity requests reach their source, beside ``IdentityPlatformClient``: the request in the
/// source's shape and with the source's headers (``ManagedIdentityRequest``; not the identity platform's), over the
/// pinned connection for Service Fabric, Azure Arc's challenge answered (``AzureArcChallenge``), sent through
/// ``WireSender`` with ``ManagedIdentityRetryPolicy``; the answer read as a token or as the source's error
/// (``ManagedIdentityResponse``).
struct ManagedIdentityClient: Sendable {
    let endpoint: ManagedIdentityEndpoint
    /// The identity, transport, clock, sleep, retry policy, Arc key folder and client capabilities.
    let configuration: ManagedIdentityApplicationConfiguration
    let log: PrivacyLogger

    /// A token for `resource`, with the time its answer was read at (its lifetime counts from then).
    ///
    /// - Parameter revokedToken: the cached token a claims challenge revoked.
    /// - Throws: ``MSALError``: `invalidParameter` for an identity the source cannot name; the source's error
    ///   (``ManagedIdentityResponse/error(_:from:now:)``); `invalidResponse` for an answer that is not a token or a
    ///   refused Arc challenge; `timedOut` or `transportFailed` when the endpoint did not answer, after the retries.
    func token(for resource: String, revokedToken: String?, correlationID: UUID) async throws
        -> (token: ManagedIdentityToken, readAt: Date)
    {
        let identity = configuration.identity
        let request = try ManagedIdentityRequest(
            endpoint: endpoint, identity: identity, resource: resource,
            capabilities: configuration.clientCapabilities, revokedToken: revokedToken, correlationID: correlationID
        ).httpRequest()
        log.info(
            "requesting a managed identity token",
            ["source": endpoint.source.rawValue, "correlation_id": correlationID.uuidString],
            pii: ["identity": "\(identity)", "resource": resource])
        var response = try await send(request)
        if endpoint.source == .azureArc, response.status == 401 {
            let key = try AzureArcChallenge.key(answering: response, folder: configuration.arcKeyFolder)
            var answered = request
            answered.headers.append((name: "Authorization", value: "Basic \(key)"))
            response = try await send(answered)
        }
        let now = configuration.clock.now()
        guard response.status == 200 else {
            throw ManagedIdentityResponse.error(response, from: endpoint.source, now: now)
        }
        return (try ManagedIdentityResponse.token(response, from: endpoint.source, now: now), now)
    }

    /// Sends `request` (over the pinned connection for Service Fabric) and returns the last answer, whatever its
    /// status.
    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transport: any HTTPTransport =
            endpoint.thumbprint.map { PinnedCertificateTransport(thumbprint: $0) } ?? configuration.transport
        let wire = WireSender(
            transport: transport, clock: configuration.clock, sleep: configuration.sleep, logger: log.logger,
            peer: "managed identity endpoint", metadata: ["source": "\(endpoint.source.rawValue)"])
        return try await wire.send(request, retrying: configuration.retryPolicy.retries(for: endpoint.source))
    }
}
