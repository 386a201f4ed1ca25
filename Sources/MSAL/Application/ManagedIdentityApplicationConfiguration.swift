import Foundation
import Logging

/// How a ``ManagedIdentityApplication`` finds its source and keeps its tokens. Copied when the app is made.
public struct ManagedIdentityApplicationConfiguration: Sendable {
    /// The identity to get tokens as.
    public var identity: ManagedIdentity
    /// The variables Azure sets on the host (`IDENTITY_ENDPOINT`, `MSI_ENDPOINT`, …); the process's by default.
    public var environment: [String: String]
    /// The Arc agent's `himds`: when it exists, the host is an Arc-enabled server.
    public var arcAgentPath: String
    /// The only folder an Azure Arc challenge's key file is read from.
    public var arcKeyFolder: String
    /// Client capabilities, e.g. `["cp1"]`; sent where the source takes them (Service Fabric).
    public var clientCapabilities: [String]
    /// Cached tokens with less than this left are not used (seconds; MSAL's default 300).
    public var tokenExpirationBuffer: TimeInterval
    /// When failed requests are sent again; MSAL.NET's policy by default.
    public var retryPolicy: ManagedIdentityRetryPolicy
    /// Sends the requests (all sources but Service Fabric, whose certificate is pinned); by default a
    /// ``DefaultHTTPTransport`` that connects directly, whatever `HTTPS_PROXY`, `HTTP_PROXY` or `ALL_PROXY` say:
    /// the endpoints are on the host or its link-local address, and a proxy would see the identity header, the
    /// Azure Arc key and the tokens (Azure's guidance: IMDS and the local identity endpoints bypass proxies).
    /// A transport given here is used as is.
    public var transport: any HTTPTransport
    /// Keeps the tokens, one partition per identity; in memory by default (each app its own, on ``clock``).
    public var cache: PartitionedTokenCache
    /// Where the library logs (swift-log); logs nothing by default.
    public var logger: Logger
    /// Tells the time, for expiry; the system clock by default.
    public var clock: any TimeSource
    /// How the library waits before a retry; tests inject an instant one.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A configuration with the defaults described on each property.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when the default transport cannot be made.
    public init(identity: ManagedIdentity = .systemAssigned) throws {
        self.identity = identity
        environment = ProcessInfo.processInfo.environment
        arcAgentPath = ManagedIdentityEndpoint.arcAgentPath
        arcKeyFolder = ManagedIdentityEndpoint.arcKeyFolder
        clientCapabilities = []
        tokenExpirationBuffer = 300
        retryPolicy = ManagedIdentityRetryPolicy()
        transport = try DefaultHTTPTransport(proxy: .direct)
        cache = PartitionedTokenCache(configurationDefault: ())
        logger = Logger(label: "MSAL", factory: { _ in SwiftLogNoOpLogHandler() })
        clock = SystemTimeSource()
        sleep = { try await Task.sleep(for: $0) }
    }
}
