import Foundation

/// What every flow shares: configuration, discovery, the identity platform client, the cache and validation.
/// A class, so a flow holds it by reference instead of copying a dozen fields on every call.
final class ApplicationCore: Sendable {
    let configuration: PublicClientApplicationConfiguration
    let resolver: AuthorityResolver
    let client: IdentityPlatformClient
    let responseHandler: TokenResponseHandler
    let refreshes: SingleFlight<AuthenticationResult>
    let log: PrivacyLogger
    let correlationIDs = CorrelationIDs()

    init(_ configuration: PublicClientApplicationConfiguration) {
        self.configuration = configuration
        client = IdentityPlatformClient(
            transport: configuration.transport, clock: configuration.clock, sleep: configuration.sleep,
            logger: configuration.logger, correlationIDs: correlationIDs)
        resolver = AuthorityResolver(
            client: client, knownAuthorities: configuration.knownAuthorities,
            metadataFile: configuration.authorityMetadataFile, clock: configuration.clock)
        responseHandler = TokenResponseHandler(
            clientID: configuration.clientID, cache: configuration.cache,
            validator: IDTokenValidator(
                jwks: JWKSCache(client: client), clock: configuration.clock),
            clock: configuration.clock)
        refreshes = SingleFlight()
        log = PrivacyLogger(logger: configuration.logger, piiEnabled: configuration.piiLoggingEnabled)
    }

    var cache: TokenCache { configuration.cache }
    var accounts: AccountBuilder { AccountBuilder(cache: configuration.cache, clientID: configuration.clientID) }
}

/// Runs at most one operation per key at a time; callers arriving meanwhile share its result.
actor SingleFlight<Value: Sendable> {
    private var running: [String: Task<Value, any Error>] = [:]

    func run(_ key: String, _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let task = running[key] { return try await task.value }
        let task = Task { try await operation() }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }
}
