import Foundation

/// How an ``MSALPublicClientApplication`` talks to the identity platform (MSAL's
/// `MSALPublicClientApplicationConfig`). The app copies it when made; later changes are ignored.
open class MSALPublicClientApplicationConfig {
    /// The application (client) id from the app registration.
    public let clientId: String
    /// The registered redirect URI. On Linux it is a loopback listener: `nil` means `http://localhost`
    /// on an ephemeral port; `http://localhost:PORT/path` fixes port and path. `msauth.` schemes do not apply.
    public var redirectUri: String?
    /// Where users sign in; `https://login.microsoftonline.com/common` by default.
    public var authority: MSALAuthority
    /// Authorities trusted without instance discovery.
    public var knownAuthorities: [MSALAuthority] = []
    /// Client capabilities sent in `claims`, e.g. `["cp1"]` for continuous access evaluation.
    public var clientApplicationCapabilities: [String]?
    /// Cached access tokens with less than this many seconds left are not used (300 by default).
    public var tokenExpirationBuffer: Double = 300
    /// Where tokens are kept: a file on Linux (the keychain on Apple platforms).
    public let cacheConfig = MSALCacheConfig()

    // Linux: what MSAL for iOS/macOS takes from the device.

    /// Shared-device mode, which an MDM profile or the Authenticator app turns on for iOS.
    public var deviceMode: MSALDeviceMode = .default
    /// Opens sign-in and sign-out pages when ``MSALWebviewParameters`` bring no launcher: the system
    /// browser (`$BROWSER` when set, else `xdg-open` on Linux, `open` on macOS) by default; on iOS, tvOS,
    /// watchOS and visionOS the app sets its own.
    public var browserLauncher: any BrowserLauncher = defaultBrowserLauncher()
    /// The HTTP transport, e.g. `DefaultHTTPTransport(trustedCAPEM:)` to trust a local CA; the default one when `nil`.
    public var transport: (any HTTPTransport)?
    /// The time source token lifetimes are judged by; the system clock by default (tests move their own).
    public var clock: any TimeSource = SystemTimeSource()
    /// Linux: how the library waits (password-reset polling, retry delays); tests make it instant.
    public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    /// A configuration for `https://login.microsoftonline.com/common` and a loopback redirect.
    public convenience init(clientId: String) {
        self.init(clientId: clientId, redirectUri: nil, authority: nil)
    }

    /// A configuration for the app `clientId` with this redirect URI and authority.
    ///
    /// - Parameters:
    ///   - clientId: the application (client) id from the app registration.
    ///   - redirectUri: `nil` for `http://localhost`, see ``redirectUri``.
    ///   - authority: `nil` for `https://login.microsoftonline.com/common`.
    public init(clientId: String, redirectUri: String?, authority: MSALAuthority?) {
        self.clientId = clientId
        self.redirectUri = redirectUri
        self.authority = authority ?? Self.commonAuthority
    }

    /// The core configuration these settings describe, logging as ``MSALGlobalConfig/loggerConfig`` says.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when the default transport cannot be made.
    func coreConfiguration() throws -> PublicClientApplicationConfiguration {
        var configuration = try PublicClientApplicationConfiguration(
            clientID: clientId, authority: authority.authority, redirectURI: redirectUri ?? "http://localhost")
        configuration.knownAuthorities = knownAuthorities.map(\.authority)
        configuration.clientCapabilities = clientApplicationCapabilities ?? []
        configuration.tokenExpirationBuffer = tokenExpirationBuffer
        configuration.cache = cacheConfig.tokenCache
        configuration.deviceMode = deviceMode == .shared ? .shared : .private
        configuration.browser = browserLauncher
        if let transport { configuration.transport = transport }
        configuration.clock = clock
        configuration.sleep = sleep
        configuration.logger = MSALGlobalConfig.loggerConfig.logger()
        configuration.piiLoggingEnabled = MSALGlobalConfig.loggerConfig.logMaskingLevel != .settingsMaskAllPII
        return configuration
    }

    private static let commonAuthority: MSALAuthority = {
        // A constant, well-formed https authority: parsing cannot fail.
        try! MSALAADAuthority(url: URL(string: "https://login.microsoftonline.com/common")!)
    }()
}
