import Foundation

/// What every grant of a public or confidential client shares: its settings, how it authenticates, discovery,
/// the identity platform client, the response handler and the token acquisition. A class, so a grant holds it by
/// reference instead of copying a dozen fields on every call. It keeps no cache: each app names the cache a grant
/// reads and writes.
final class ApplicationCore: Sendable {
    let settings: ClientSettings
    let authentication: ClientAuthentication
    let resolver: AuthorityResolver
    let client: IdentityPlatformClient
    let responseHandler: TokenResponseHandler
    let acquisition: TokenAcquisition
    let log: PrivacyLogger
    let correlationIDs = CorrelationIDs()

    init(_ settings: ClientSettings, authentication: ClientAuthentication) {
        self.settings = settings
        self.authentication = authentication
        client = IdentityPlatformClient(
            transport: settings.transport, clock: settings.clock, sleep: settings.sleep, logger: settings.logger,
            correlationIDs: correlationIDs)
        resolver = AuthorityResolver(
            client: client, knownAuthorities: settings.knownAuthorities, metadataFile: settings.authorityMetadataFile,
            clock: settings.clock)
        responseHandler = TokenResponseHandler(
            clientID: settings.clientID,
            validator: IDTokenValidator(
                keys: SigningKeyStore(client: client, clock: settings.clock), clock: settings.clock),
            clock: settings.clock)
        log = PrivacyLogger(logger: settings.logger, piiEnabled: settings.piiLoggingEnabled)
        acquisition = TokenAcquisition(
            clock: settings.clock, expirationBuffer: settings.tokenExpirationBuffer, log: log)
    }

    /// The client authentication fields for a request to `tokenEndpoint`; none for a public client.
    func authenticationFields(for tokenEndpoint: URL) async throws -> [(String, String)] {
        switch authentication {
        case .publicClient: []
        case .credential(let authenticator): try await authenticator.formFields(tokenEndpoint: tokenEndpoint)
        }
    }

    /// `endpoints`, discovered again first when they were read from the metadata file: a request is about to go
    /// online anyway, and the file may be stale.
    func onlineEndpoints(_ endpoints: AuthorityEndpoints) async throws -> AuthorityEndpoints {
        endpoints.discoveredOnline ? endpoints : try await resolver.endpoints(for: endpoints.authority, online: true)
    }

    /// Sends a grant to the token endpoint of `context.endpoints` with the client's authentication, then files the
    /// answer through the response handler: the one way a user's token response becomes cached tokens and a result.
    /// The context's extra query parameters go on the endpoint's URL; a client assertion names the endpoint itself.
    func redeem(_ request: some TokenRequest, _ context: TokenResponseHandler.Context) async throws
        -> AuthenticationResult
    {
        let endpoint = context.endpoints.token
        let response = try await client.token(
            request, endpoint: ExtraQueryParameters.appending(context.extraQueryParameters, to: endpoint),
            correlationID: context.correlationID, authentication: try await authenticationFields(for: endpoint))
        return try await responseHandler.handle(response, context)
    }

    /// The claims to send: the request's, merged with the client's capabilities.
    func claims(_ requested: String?) throws -> String? {
        try ClaimsRequest.merged(requested, capabilities: settings.clientCapabilities)
    }
}

/// How a client proves its identity at the token endpoint.
enum ClientAuthentication: Sendable {
    /// A public client: no credential.
    case publicClient
    /// A confidential client's credential.
    case credential(ClientAuthenticator)
}
