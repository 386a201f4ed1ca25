import Foundation
import IdentityEmulator
import Testing

@testable import MSAL

/// A bad day on the network, through the real transport (async-http-client) against the emulator:
/// each fault ends in a clear error within the transport's deadline, and the cache keeps what it had.
@Suite("Transport faults", .timeLimit(.minutes(2)))
struct TransportFaultTests {
    @Test("no answer within the deadline is timedOut", arguments: ["delay", "slowDrip"])
    func timeout(fault: String) async throws {
        try await Harness.with { h in
            let (app, first) = try await Self.signedIn(h)
            var configuration = app.configuration
            configuration.transport = try DefaultHTTPTransport(timeout: .seconds(1))
            let impatient = try PublicClientApplication(configuration: configuration)
            // A delay of 3 s, or a drip of 4 bytes every 300 ms (about 6 s for the whole answer).
            _ = try await h.admin(
                "POST", "scenarios",
                body:
                    #"{"route":"token","fault":"\#(fault)","count":2,"delayMilliseconds":\#(fault == "delay" ? 3000 : 300)}"#
            )
            let error = try await #require(throws: MSALError.self) {
                try await impatient.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(error.internalCode == .timedOut, "\(error)")
            try await Self.expectUnchanged(app, first)
        }
    }

    @Test("a refused connection is transportFailed naming the host and port")
    func connectionRefused() async throws {
        let port = try Self.closedPort()
        var configuration = try PublicClientApplicationConfiguration(
            clientID: Directory.DemoIDs.publicClient, authority: Authority("http://127.0.0.1:\(port)/organizations"))
        configuration.transport = try DefaultHTTPTransport(timeout: .seconds(5))
        let app = try PublicClientApplication(configuration: configuration)
        let error = try await #require(throws: MSALError.self) {
            try await app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: ["User.Read"])) { _ in
                Issue.record("no device code without a server")
            }
        }
        #expect(error.internalCode == .transportFailed, "\(error)")
        #expect(error.message.contains("127.0.0.1:\(port)"))
        #expect(error.transportFailure == MSALError.TransportFailure(.connectionRefused, host: "127.0.0.1", port: port))
        #expect(error.transportFailure?.isLoopback == true)
        #expect(error.message.contains("start it: swift run identity-emulator"), "\(error.message)")
        #expect(error.underlyingError != nil, "the transport's error is kept")
    }

    @Test("an untrusted certificate is transportFailed naming the server and keeping NIOSSL's error beneath")
    func untrustedCertificate() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: folder)) { emulator in
            var configuration = try PublicClientApplicationConfiguration(
                clientID: Directory.DemoIDs.publicClient,
                authority: Authority(emulator.authority("organizations").absoluteString))
            configuration.transport = try DefaultHTTPTransport(timeout: .seconds(10))
            let app = try PublicClientApplication(configuration: configuration)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: ["User.Read"])) { _ in
                    Issue.record("no device code from an untrusted server")
                }
            }
            let failure = MSALError.TransportFailure(.untrustedCertificate, host: "127.0.0.1", port: emulator.port)
            #expect(error.transportFailure == failure, "\(error)")
            #expect(error.message.hasPrefix("The certificate of 127.0.0.1:\(emulator.port) is not trusted"))
            #expect(!error.message.contains("NIOSSL") && !error.message.contains(".cc:"), "\(error.message)")
            #expect(error.underlyingError.map { "\(type(of: $0))" } == "NIOSSLError")
        }
    }

    @Test("429 with Retry-After as an HTTP date is throttled with the seconds left")
    func throttledUntilDate() async throws {
        try await Harness.with { h in
            let (app, first) = try await Self.signedIn(h)
            let until = h.clock.now().addingTimeInterval(900)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            _ = try await h.admin(
                "POST", "scenarios",
                body: #"{"route":"token","fault":"throttle","retryAfter":"\#(formatter.string(from: until))"}"#)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(error.internalCode == .throttled)
            #expect(error.httpStatus == 429)
            #expect((899...900).contains(error.retryAfter ?? 0), "\(String(describing: error.retryAfter))")
            try await Self.expectUnchanged(app, first)
        }
    }

    @Test("a 503 is retried once; a second 503 is a serverError")
    func serviceUnavailable() async throws {
        try await Harness.with { h in
            let (app, first) = try await Self.signedIn(h)
            try await h.scenario("token", "serviceUnavailable")
            let retried = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            #expect(retried.source == .identityProvider)
            try await h.scenario("token", "serviceUnavailable", count: 2)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(error.code == .serverError)
            #expect(error.httpStatus == 503)
            let cached = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(cached.accessToken == retried.accessToken)
        }
    }

    @Test("a 50 MB answer is refused by the size cap without reading it")
    func hugeBody() async throws {
        try await Harness.with { h in
            let (app, first) = try await Self.signedIn(h)
            try await h.scenario("token", "hugeBody", count: 2)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(error.internalCode == .invalidResponse, "\(error)")
            #expect(error.message.contains("exceeds"))
            try await Self.expectUnchanged(app, first)
        }
    }

    // MARK: Helpers

    /// An app on the real transport, signed in once.
    static func signedIn(_ h: Harness) async throws -> (PublicClientApplication, AuthenticationResult) {
        let base = try h.app(user: h.user(Harness.megan))
        var configuration = base.configuration
        configuration.transport = try DefaultHTTPTransport()
        let app = try PublicClientApplication(configuration: configuration)
        return (app, try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"])))
    }

    /// The cache still answers with the token it had.
    static func expectUnchanged(_ app: PublicClientApplication, _ first: AuthenticationResult) async throws {
        let cached = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: first.account))
        #expect(cached.accessToken == first.accessToken)
        #expect(cached.source == .cache)
    }

    /// A loopback port nothing listens on: bound, read and closed again.
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
