import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import Locking
import MSAL
import NIOCore

/// The identity emulator in-process on port 0 for the tutorials' view controllers: its URLs replace the
/// tutorials' constants, a scripted user signs in through its pages, and one test clock serves both.
final class TutorialEnvironment: Sendable {
    let emulator: RunningEmulator
    let clock: TestClock
    let http: HTTPClient
    /// The person at the browser.
    let user: AutomatedUser
    /// The device's token store (the keychain on iOS), shared by every app a test makes.
    let cache = TokenCache()
    let deviceMode: MSALDeviceMode

    static let megan = AutomatedUser.Choice.signIn(
        username: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")
    static let jane = AutomatedUser.Choice.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4")

    private init(
        emulator: RunningEmulator, clock: TestClock, http: HTTPClient, user: AutomatedUser, deviceMode: MSALDeviceMode
    ) {
        self.emulator = emulator
        self.clock = clock
        self.http = http
        self.user = user
        self.deviceMode = deviceMode
    }

    /// Runs `body` with a fresh emulator whose user will make `choices` on the sign-in pages.
    static func with(
        _ choices: AutomatedUser.Choice..., deviceMode: MSALDeviceMode = .default,
        _ body: @Sendable (TutorialEnvironment) async throws -> Void
    ) async throws {
        let clock = TestClock()
        let configuration = EmulatorConfiguration(
            port: 0, seed: 7, accessTokenLifetime: 3600,
            clock: EmulatorClock(base: { clock.now() }))
        try await IdentityEmulator.withRunning(configuration) { running in
            let http = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: .init(redirectConfiguration: .disallow))
            let environment = TutorialEnvironment(
                emulator: running, clock: clock, http: http,
                user: AutomatedUser(http: http, choices: choices), deviceMode: deviceMode)
            do {
                try await body(environment)
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    /// The workforce demo app, for `kClientID`.
    var clientID: String { Directory.DemoIDs.publicClient }
    /// The External ID demo app.
    var externalClientID: String { Directory.DemoIDs.externalPublicClient }
    /// The sample APIs' application ids.
    var api1: String { Directory.DemoIDs.api1 }
    var api2: String { Directory.DemoIDs.api2 }

    /// The last one-time code the emulator "emailed" to `address`.
    func lastCode(to address: String) async throws -> String {
        try await Outbox(base: emulator.baseURL, http: http).lastCode(to: address)
    }
    /// `kAuthority`: the emulator standing in for `https://login.microsoftonline.com/{tenant}`.
    func authority(_ tenant: String) -> String { "\(emulator.baseURL.absoluteString)/\(tenant)" }
    /// `kGraphEndpoint`: the emulator serves Graph's `/v1.0/me` too.
    var graphEndpoint: String { emulator.baseURL.absoluteString + "/" }

    /// What the tutorials' device provides, set on Linux by configuration: the shared in-memory cache,
    /// the scripted user as the default browser, the test clock and the device mode.
    func configure(_ configuration: MSALPublicClientApplicationConfig) {
        configuration.cacheConfig.tokenCache = cache
        configuration.browserLauncher = user
        configuration.clock = clock
        configuration.deviceMode = deviceMode
    }

    /// Ends the user's sessions and refresh tokens, as an administrator would.
    func revoke(_ user: String) async throws {
        _ = try await admin("POST", "users/\(user)/revoke", body: "{}")
    }

    /// The token-endpoint requests served, by grant type.
    func tokenRequests() async throws -> [String] {
        let json = try await admin("GET", "requests?path=/oauth2/v2.0/token")
        return ((json["requests"] as? [[String: Any]]) ?? []).compactMap { $0["grant_type"] as? String }
    }

    private func admin(_ method: String, _ path: String, body: String? = nil) async throws -> [String: Any] {
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

/// One clock for the library and the emulator, moved by tests instead of waiting.
final class TestClock: TimeSource, Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_795_000_000))

    func now() -> Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
