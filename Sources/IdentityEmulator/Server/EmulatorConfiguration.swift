import Foundation
import Logging

/// How to run an emulator: where it listens, what it knows, and how deterministic it is.
public struct EmulatorConfiguration: Sendable {
    /// The interface to bind; loopback by default.
    public var host: String
    /// The port; `0` picks a free one (read it from ``RunningEmulator/port``).
    public var port: Int
    /// The tenants, users and applications served.
    public var directory: Directory
    /// Serve HTTPS with a freshly made local CA; its PEM is written into this folder.
    public var tlsDirectory: URL?
    /// The origin clients reach the emulator at when it is not the bound address (a host name, a
    /// proxy); every issuer names it. `nil`: the bound address, e.g. `http://127.0.0.1:8400`.
    public var publicURL: URL?
    /// Seeds every random value the emulator makes (ids, codes, lifetimes) for reproducible runs.
    public var seed: UInt64?
    /// A fixed access-token lifetime in seconds instead of Entra's random 60–90 minutes.
    public var accessTokenLifetime: Int?
    /// The time source; the offset set through `/_emulator/clock` is added to it.
    public var clock: EmulatorClock
    /// Where the Azure Arc hosts write their challenges' key files: the agent's folder on a real machine,
    /// `/var/opt/azcmagent/tokens`, by default.
    public var arcKeyFolder: URL
    /// How long a connection may take to send a request's head (line and headers) before it is answered 408
    /// and closed, counted from the connection or the previous response: a client that drips its headers
    /// cannot hold a connection open.
    public var requestHeadTimeout: Duration = .seconds(10)
    /// How long an idle keep-alive connection, or a request body that stops arriving, is kept.
    public var idleTimeout: Duration = .seconds(60)
    /// A file that keeps the directory as changed (users signed up, passwords reset, MFA methods registered,
    /// `POST /_emulator/import`) across restarts: when it exists it is served in place of ``directory``; it is
    /// written at start and after each change (`0600`, atomically).
    public var stateFile: URL?
    public var logger: Logger

    public init(
        host: String = "127.0.0.1", port: Int = 8400, directory: Directory = .demo, tlsDirectory: URL? = nil,
        publicURL: URL? = nil, seed: UInt64? = nil, accessTokenLifetime: Int? = nil,
        clock: EmulatorClock = EmulatorClock(),
        logger: Logger = Logger(label: "identity-emulator", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.host = host
        self.port = port
        self.directory = directory
        self.tlsDirectory = tlsDirectory
        self.publicURL = publicURL
        self.seed = seed
        self.accessTokenLifetime = accessTokenLifetime
        self.clock = clock
        self.logger = logger
        arcKeyFolder = URL(fileURLWithPath: "/var/opt/azcmagent/tokens", isDirectory: true)
    }
}

/// A started emulator: where it is and what it serves.
public struct RunningEmulator: Sendable {
    /// The base URL, e.g. `http://127.0.0.1:8400`.
    public let baseURL: URL
    /// The origin every issuer names: the configured public URL, else ``baseURL``.
    public let issuerOrigin: URL
    public let port: Int
    /// The local CA's certificate when serving HTTPS, for clients to trust.
    public let caCertificatePEM: String?
    /// The file the CA certificate is kept in.
    public let caCertificateFile: URL?
    /// Whether the CA was made at this start (none was kept, it was near its end, or it was made for another public
    /// URL): clients that trusted the one before must trust this one.
    public let caCertificateIsNew: Bool
    public let directory: Directory
    /// The SHA-1 thumbprint of the HTTPS server certificate (upper-case hexadecimal), what Service Fabric gives its
    /// applications in `IDENTITY_SERVER_THUMBPRINT`; `nil` over plain HTTP.
    public let serverCertificateThumbprint: String?

    /// The authority URL for a tenant GUID, domain, `common` or `organizations`.
    public func authority(_ tenant: String) -> URL { baseURL.appendingPathComponent(tenant) }
}
