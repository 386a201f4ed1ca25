import Foundation
import Logging

/// How a ``ConfidentialClientApplication`` (a daemon, web app or web API) talks to the identity platform.
/// Copied when the app is made.
public struct ConfidentialClientApplicationConfiguration: Sendable {
    /// The application (client) id from the app registration.
    public var clientID: String
    /// How the app proves its identity: a secret, a certificate or an assertion.
    public var credential: ClientCredential
    /// The app's authority. App tokens and on-behalf-of need a tenant
    /// (`https://login.microsoftonline.com/{tenant}`); web-app sign-in may use `organizations` or `common`.
    public var authority: Authority
    /// The web redirect URI registered for sign-in (`https://app.example.com/auth/callback`); only
    /// needed for ``ConfidentialClientApplication/startSignIn(_:)``.
    public var redirectURI: String?
    /// The region of Entra's regional token service to get app tokens from (`.named("westus2")` or `.autoDetect`);
    /// `nil`, the default, for the global endpoint. See ``AzureRegion``.
    public var azureRegion: AzureRegion?
    /// The variables ``AzureRegion/autoDetect`` reads: `REGION_NAME`, and `AZURE_POD_IDENTITY_AUTHORITY_HOST` when
    /// IMDS is not at `http://169.254.169.254`; the process's by default.
    public var environment: [String: String]
    /// Authorities trusted without instance discovery.
    public var knownAuthorities: [Authority]
    /// Client capabilities sent in `claims`, e.g. `["cp1"]` for continuous access evaluation.
    public var clientCapabilities: [String]
    /// Cached access tokens with less than this left are not used (seconds; MSAL's default 300).
    public var tokenExpirationBuffer: TimeInterval
    /// Where the library logs (swift-log); logs nothing by default.
    public var logger: Logger
    /// Puts usernames and other personal data into log metadata. Tokens and secrets are never logged.
    public var piiLoggingEnabled: Bool
    /// Sends the library's HTTP requests; by default a ``DefaultHTTPTransport`` with the environment's proxy, made
    /// when the app is made (so a transport set here is the only one made).
    public var transport: any HTTPTransport
    /// Keeps tokens, one partition per client and tenant, incoming token or user; in memory by default (each app its own, on ``clock``).
    public var cache: PartitionedTokenCache
    /// Where discovered authority metadata persists between processes; in memory when `nil`.
    public var authorityMetadataFile: AuthorityMetadataFile?
    /// Tells the time, for token expiry and assertions; the system clock by default.
    public var clock: any TimeSource
    /// Makes `state`, `nonce`, PKCE verifiers and assertion ids; the system's secure generator by default.
    public var random: any RandomSource
    /// How the library waits before a retry; tests inject an instant one.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A configuration with the defaults described on each property.
    public init(clientID: String, credential: ClientCredential, authority: Authority) {
        self.clientID = clientID
        self.credential = credential
        self.authority = authority
        redirectURI = nil
        azureRegion = nil
        environment = ProcessInfo.processInfo.environment
        knownAuthorities = []
        clientCapabilities = []
        tokenExpirationBuffer = 300
        logger = Logger(label: "MSAL", factory: { _ in SwiftLogNoOpLogHandler() })
        piiLoggingEnabled = false
        transport = DeferredDefaultTransport()
        cache = PartitionedTokenCache(configurationDefault: ())
        authorityMetadataFile = nil
        clock = SystemTimeSource()
        random = SystemRandomSource()
        sleep = { try await Task.sleep(for: $0) }
    }
}
