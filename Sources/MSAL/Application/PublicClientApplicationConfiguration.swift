import Foundation
import Logging

/// How a ``PublicClientApplication`` talks to the identity platform. Copied when the app is made.
public struct PublicClientApplicationConfiguration: Sendable {
    /// The application (client) id from the app registration.
    public var clientID: String
    /// Where users sign in; `https://login.microsoftonline.com/common` by default.
    public var authority: Authority
    /// The redirect URI registered for the app. `http://localhost` (the default) means a one-shot
    /// listener on 127.0.0.1 and an ephemeral port; `http://localhost:PORT/path` fixes the port and path.
    public var redirectURI: String
    /// Authorities trusted without instance discovery.
    public var knownAuthorities: [Authority]
    /// Client capabilities sent in `claims`, e.g. `["cp1"]` for continuous access evaluation.
    public var clientCapabilities: [String]
    /// Cached access tokens with less than this left are not used (seconds; MSAL's default 300).
    public var tokenExpirationBuffer: TimeInterval
    /// Where the library logs (swift-log); logs nothing by default.
    public var logger: Logger
    /// Puts usernames and other personal data into log metadata. Tokens are never logged.
    public var piiLoggingEnabled: Bool
    /// Sends the library's HTTP requests; by default a ``DefaultHTTPTransport`` with the environment's proxy, made
    /// when the app is made (so a transport set here is the only one made).
    public var transport: any HTTPTransport
    /// Opens the sign-in page of an interactive sign-in; ``SystemBrowserLauncher`` by default.
    public var browser: any BrowserLauncher
    /// Keeps the accounts and tokens; in memory only by default.
    public var cache: TokenCache
    /// Where discovered authority metadata persists between processes; `nil` (the default) keeps it
    /// in memory for the app's lifetime. Worth setting for short-lived processes such as CLIs.
    public var authorityMetadataFile: AuthorityMetadataFile?
    /// `.shared` for shared-device mode (the tutorials' "Get device info").
    public var deviceMode: DeviceInformation.Mode
    /// How long an interactive sign-in may take before it fails with `timedOut`.
    public var interactiveTimeout: Duration
    /// Receives the authorization response at ``redirectURI``; a ``LoopbackRedirectReceiver`` by default.
    public var redirectReceiver: any RedirectReceiver
    /// Tells the time, for token expiry; the system clock by default.
    public var clock: any TimeSource
    /// Makes the PKCE verifier, `state` and `nonce`; the system's secure random generator by default.
    public var random: any RandomSource
    /// How the library waits (device-code polling, retry delays); tests inject an instant one.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A configuration with the defaults described on each property.
    ///
    /// - Throws: ``MSALError`` from parsing the default authority when `authority` is `nil`.
    public init(clientID: String, authority: Authority? = nil, redirectURI: String = "http://localhost") throws {
        self.clientID = clientID
        self.authority = try authority ?? Authority("https://login.microsoftonline.com/common")
        self.redirectURI = redirectURI
        knownAuthorities = []
        clientCapabilities = []
        tokenExpirationBuffer = 300
        logger = Logger(label: "MSAL", factory: { _ in SwiftLogNoOpLogHandler() })
        piiLoggingEnabled = false
        transport = DeferredDefaultTransport()
        browser = defaultBrowserLauncher()
        cache = TokenCache()
        authorityMetadataFile = nil
        deviceMode = .private
        interactiveTimeout = .seconds(300)
        redirectReceiver = LoopbackRedirectReceiver()
        clock = SystemTimeSource()
        random = SystemRandomSource()
        sleep = { try await Task.sleep(for: $0) }
    }
}

/// What the tutorials' "Get device info" button shows.
public struct DeviceInformation: Sendable, Equatable {
    /// Whether one user or several use the device.
    public enum Mode: String, Sendable {
        /// One user signs in on the device (the default).
        case `private`
        /// Several users share the device, one at a time.
        case shared
    }

    /// The device's mode, from ``PublicClientApplicationConfiguration/deviceMode``.
    public let deviceMode: Mode
    /// Linux has no SSO extension or broker.
    public let hasSSOExtension: Bool
}
