import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import Logging
import MSAL
import NIOCore
import NIOSSL
import Testing

/// The emulator in-process on port 0, sharing a movable clock with the library, plus helpers to
/// make apps and to count the emulator's token requests.
final class Harness: Sendable {
    let emulator: RunningEmulator
    let clock: TestClock
    let http: HTTPClient
    let ids = Directory.DemoIDs.self

    private init(emulator: RunningEmulator, clock: TestClock, http: HTTPClient) {
        self.emulator = emulator
        self.clock = clock
        self.http = http
    }

    /// - Parameters:
    ///   - directory: what the emulator serves; the demo directory unless a test needs its own settings.
    ///   - accessTokenLifetime: the lifetime of every access token; `nil` for the emulator's (a day for managed
    ///     identities).
    ///   - tlsDirectory: serve HTTPS with a local CA written there.
    ///   - arcKeyFolder: where the Azure Arc hosts write their key files.
    static func with(
        directory: Directory = .demo, accessTokenLifetime: Int? = 3600, tlsDirectory: URL? = nil,
        arcKeyFolder: URL? = nil, _ body: @Sendable (Harness) async throws -> Void
    ) async throws {
        let clock = TestClock()
        var configuration = EmulatorConfiguration(
            port: 0, directory: directory, tlsDirectory: tlsDirectory, seed: 11,
            accessTokenLifetime: accessTokenLifetime, clock: EmulatorClock(base: { clock.now() }))
        if let arcKeyFolder { configuration.arcKeyFolder = arcKeyFolder }
        try await IdentityEmulator.withRunning(configuration) { running in
            var httpConfiguration = HTTPClient.Configuration(redirectConfiguration: .disallow)
            if let pem = running.caCertificatePEM {
                var tls = TLSConfiguration.makeClientConfiguration()
                tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))]
                httpConfiguration.tlsConfiguration = tls
            }
            let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: httpConfiguration)
            let harness = Harness(emulator: running, clock: clock, http: http)
            do {
                try await body(harness)
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    func authority(_ tenant: String = "organizations") throws -> Authority {
        try Authority("\(emulator.baseURL.absoluteString)/\(tenant)")
    }

    /// A public client app against the emulator, with the test clock, an instant sleep and `user` as the browser.
    func app(
        client: String? = nil, tenant: String = "organizations", user: AutomatedUser? = nil,
        capabilities: [String] = [], cache: TokenCache = TokenCache(), logger: Logger? = nil,
        sleep: (@Sendable (Duration) async throws -> Void)? = nil,
        metadataFile: AuthorityMetadataFile? = nil, redirectReceiver: (any RedirectReceiver)? = nil,
        transport: (any HTTPTransport)? = nil
    ) throws -> PublicClientApplication {
        var configuration = try PublicClientApplicationConfiguration(
            clientID: client ?? ids.publicClient, authority: authority(tenant))
        configuration.browser = user ?? AutomatedUser(http: http, choices: [])
        configuration.clock = clock
        configuration.sleep = sleep ?? { _ in await Task.yield() }
        configuration.clientCapabilities = capabilities
        configuration.cache = cache
        configuration.authorityMetadataFile = metadataFile
        configuration.interactiveTimeout = .seconds(30)
        if let redirectReceiver {
            configuration.redirectReceiver = redirectReceiver
        }
        if let transport {
            configuration.transport = transport
        }
        if let logger {
            configuration.logger = logger
        }
        return try PublicClientApplication(configuration: configuration)
    }

    func user(_ choices: AutomatedUser.Choice..., consent: Bool = true) -> AutomatedUser {
        AutomatedUser(http: http, choices: choices, consent: consent)
    }

    static let megan = AutomatedUser.Choice.signIn(
        username: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")
    static let adele = AutomatedUser.Choice.signIn(
        username: "AdeleV@contoso.onmicrosoft.com", password: "Adele-Demo-Pass2")

    /// Token-endpoint requests the emulator served, by grant type.
    func tokenRequests() async throws -> [String] {
        let json = try await admin("GET", "requests?path=/oauth2/v2.0/token")
        let list = (json["requests"] as? [[String: Any]]) ?? []
        return list.compactMap { $0["grant_type"] as? String }
    }

    /// How many OpenID configuration documents the emulator served.
    func discoveryRequests() async throws -> Int {
        let json = try await admin("GET", "requests?path=/v2.0/.well-known/openid-configuration")
        return (json["requests"] as? [[String: Any]])?.count ?? 0
    }

    /// How many key sets (JWKS) the emulator served.
    func keyRequests() async throws -> Int {
        let json = try await admin("GET", "requests?path=/discovery/v2.0/keys")
        return (json["requests"] as? [[String: Any]])?.count ?? 0
    }

    func scenario(_ route: String, _ fault: String, count: Int = 1) async throws {
        _ = try await admin("POST", "scenarios", body: #"{"route":"\#(route)","fault":"\#(fault)","count":\#(count)}"#)
    }

    func revoke(_ user: String) async throws {
        _ = try await admin("POST", "users/\(user)/revoke", body: "{}")
    }

    func setClockOffset(_ seconds: Int) async throws {
        _ = try await admin("POST", "clock", body: #"{"offsetSeconds":\#(seconds)}"#)
    }

    @discardableResult
    func admin(_ method: String, _ path: String, body: String? = nil) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: "\(emulator.baseURL.absoluteString)/_emulator/\(path)")
        request.method = method == "POST" ? .POST : .GET
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let data = Data(try await response.body.collect(upTo: 1 << 22).readableBytesView)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}
