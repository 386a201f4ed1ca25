import Foundation

/// What every flow shares: configuration, discovery, the identity platform client, the cache, validation
/// and, for a confidential client, its credential. A class, so a flow holds it by reference instead of
/// copying a dozen fields on every call.
final class ApplicationCore: Sendable {
    let configuration: PublicClientApplicationConfiguration
    /// The confidential client's credential; `nil` for a public client.
    let authenticator: ClientAuthenticator?
    let resolver: AuthorityResolver
    let client: IdentityPlatformClient
    let responseHandler: TokenResponseHandler
    let refreshes: SingleFlight<AuthenticationResult>
    let log: PrivacyLogger
    let correlationIDs = CorrelationIDs()

    init(_ configuration: PublicClientApplicationConfiguration, credential: ClientCredential? = nil) {
        self.configuration = configuration
        authenticator = credential.map {
            ClientAuthenticator(
                clientID: configuration.clientID, credential: $0, clock: configuration.clock,
                random: configuration.random)
        }
        client = IdentityPlatformClient(
            transport: configuration.transport, clock: configuration.clock, sleep: configuration.sleep,
            logger: configuration.logger, correlationIDs: correlationIDs)
        resolver = AuthorityResolver(
            client: client, knownAuthorities: configuration.knownAuthorities,
            metadataFile: configuration.authorityMetadataFile, clock: configuration.clock)
        responseHandler = TokenResponseHandler(
            clientID: configuration.clientID, cache: configuration.cache,
            validator: IDTokenValidator(
                jwks: JWKSCache(client: client, clock: configuration.clock), clock: configuration.clock),
            clock: configuration.clock)
        refreshes = SingleFlight()
        log = PrivacyLogger(logger: configuration.logger, piiEnabled: configuration.piiLoggingEnabled)
    }

    var cache: TokenCache { configuration.cache }

    /// The client authentication fields for a request to `tokenEndpoint`; none for a public client.
    func authentication(for tokenEndpoint: URL) async throws -> [(String, String)] {
        try await authenticator?.formFields(tokenEndpoint: tokenEndpoint) ?? []
    }
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
