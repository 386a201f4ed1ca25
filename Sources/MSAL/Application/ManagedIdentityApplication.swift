import Foundation

/// A service on Azure getting tokens as its managed identity: no secret, only the endpoint Azure gives the host.
/// The source (App Service, Service Fabric, Azure Machine Learning, Cloud Shell, Azure Arc or IMDS) is detected
/// from the environment as MSAL does.
///
/// ```swift
/// let app = try ManagedIdentityApplication(configuration: .init(identity: .systemAssigned))
/// let token = try await app.acquireToken(ManagedIdentityParameters(resource: "https://management.azure.com/"))
/// ```
public final class ManagedIdentityApplication: Sendable {
    /// The app's configuration.
    public let configuration: ManagedIdentityApplicationConfiguration
    /// The source the environment named, and its endpoint.
    public let endpoint: ManagedIdentityEndpoint
    private let acquisition: TokenAcquisition
    private let client: ManagedIdentityClient
    private let correlationIDs = CorrelationIDs()

    /// Makes an app and detects its source.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when the environment names an endpoint that is not a URL, or a
    ///   Service Fabric endpoint without a valid thumbprint.
    public init(configuration: ManagedIdentityApplicationConfiguration) throws {
        var configuration = configuration
        configuration.cache = configuration.cache.followingClock(configuration.clock)
        self.configuration = configuration
        endpoint = try ManagedIdentityEndpoint(
            environment: configuration.environment, arcAgentPath: configuration.arcAgentPath)
        let log = PrivacyLogger(logger: configuration.logger, piiEnabled: false)
        acquisition = TokenAcquisition(
            clock: configuration.clock, expirationBuffer: configuration.tokenExpirationBuffer, log: log)
        client = ManagedIdentityClient(endpoint: endpoint, configuration: configuration, log: log)
    }

    /// The source tokens come from.
    public var source: ManagedIdentitySource { endpoint.source }

    /// A token for the parameters' ``ManagedIdentityParameters/resource`` (an app id URI such as
    /// `https://management.azure.com/`, or a client id; a trailing `/.default` is dropped): from the cache while it
    /// has more than the expiry buffer left, else from the source, one request for all concurrent callers, retried as
    /// ``ManagedIdentityApplicationConfiguration/retryPolicy`` says.
    ///
    /// - Throws: ``MSALError``: `invalidParameter` for an empty resource or an identity the source cannot name;
    ///   `invalidScope` for a resource the platform does not know; `unauthorizedClient` when the host has no such
    ///   identity or refuses the caller; `serverError`; `invalidResponse`; `timedOut`/`transportFailed` when the
    ///   endpoint cannot be reached (after the retries).
    public func acquireToken(_ parameters: ManagedIdentityParameters) async throws -> AppTokenResult {
        var resource = parameters.resource.trimmingCharacters(in: .whitespaces)
        if resource.hasSuffix("/.default") { resource.removeLast("/.default".count) }
        guard !resource.isEmpty else {
            throw MSALError.internal(.invalidParameter, "Name the resource, e.g. https://management.azure.com/.")
        }
        let flow = ManagedIdentityFlow(
            configuration: configuration, client: client, acquisition: acquisition, correlationIDs: correlationIDs)
        return try await Telemetry.acquisition("msal.acquire_token_for_managed_identity", flow: "managed_identity") {
            try await flow.run(resource: resource, forceRefresh: parameters.forceRefresh, claims: parameters.claims)
        }
    }
}
