import Foundation
import HTTPTypes

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
        let (request, body) = try ManagedIdentityRequest(
            endpoint: endpoint, identity: identity, resource: resource,
            capabilities: configuration.clientCapabilities, revokedToken: revokedToken, correlationID: correlationID
        ).httpRequest()
        log.info(
            "requesting a managed identity token",
            ["source": endpoint.source.rawValue, "correlation_id": correlationID.uuidString],
            pii: ["identity": "\(identity)", "resource": resource])
        var (response, answer) = try await send(request, body: body)
        if endpoint.source == .azureArc, response.status == .unauthorized {
            let key = try AzureArcChallenge.key(answering: response, folder: configuration.arcKeyFolder)
            var answered = request
            answered.headerFields.append(HTTPField(name: .authorization, value: "Basic \(key)"))
            (response, answer) = try await send(answered, body: body)
        }
        let now = configuration.clock.now()
        guard response.status == .ok else {
            throw ManagedIdentityResponse.error(response, answer, from: endpoint.source, now: now)
        }
        return (try ManagedIdentityResponse.token(response, answer, from: endpoint.source, now: now), now)
    }

    /// Sends `request` with `body` (over the pinned connection for Service Fabric) and returns the last answer,
    /// whatever its status, with its body.
    private func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let transport: any HTTPTransport =
            endpoint.thumbprint.map { PinnedCertificateTransport(thumbprint: $0) } ?? configuration.transport
        let wire = WireSender(
            transport: transport, clock: configuration.clock, sleep: configuration.sleep, logger: log.logger,
            peer: "managed identity endpoint", metadata: ["source": "\(endpoint.source.rawValue)"])
        return try await wire.send(
            request, body: body, retrying: configuration.retryPolicy.retries(for: endpoint.source))
    }
}
