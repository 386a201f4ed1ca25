import Foundation
import MSAL
import TestServers
import Testing

/// The default transport through a real HTTP proxy (tinyproxy on loopback): `CONNECT` tunnels to the identity
/// platform, credentials from the proxy URL, `NO_PROXY` hosts reached directly, and clear errors from the proxy.
@Suite("Proxies: through a real tinyproxy")
struct ProxyTransportTests {
    static let credentials = (user: "msal", password: "proxy-pass-1")

    private static func withTLSHarness(_ body: @escaping @Sendable (Harness) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-ca-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Harness.with(tlsDirectory: folder, body)
    }

    private static func transport(_ h: Harness, _ settings: ProxySettings) throws -> DefaultHTTPTransport {
        try DefaultHTTPTransport(trustedCAPEM: h.emulator.caCertificatePEM, proxy: .settings(settings))
    }

    private static func target(_ h: Harness) -> String {
        "\(h.emulator.baseURL.host ?? ""):\(h.emulator.port)"
    }

    @Test("an interactive sign-in and a silent refresh go through the proxy's CONNECT tunnel, with Basic credentials")
    func signInAndRefreshThroughTheProxy() async throws {
        try await Tinyproxy.with(basicAuth: Self.credentials) { proxy in
            try await Self.withTLSHarness { h in
                let settings = try ProxySettings(https: proxy.url(credentials: Self.credentials))
                let app = try h.app(user: h.user(Harness.megan), transport: try Self.transport(h, settings))
                let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
                h.clock.advance(by: 3600 - 200)
                let refreshed = try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account))
                #expect(refreshed.source == .identityProvider)
                #expect(try await h.tokenRequests() == ["authorization_code", "refresh_token"])
                let tunnels = try proxy.connectTargets()
                #expect(!tunnels.isEmpty && tunnels.allSatisfy { $0 == Self.target(h) }, "\(tunnels)")
            }
        }
    }

    @Test("a NO_PROXY host is reached directly: the proxy sees nothing")
    func noProxyHost() async throws {
        try await Tinyproxy.with { proxy in
            try await Self.withTLSHarness { h in
                let host = try #require(h.emulator.baseURL.host)
                let settings = try ProxySettings(https: proxy.url(), noProxy: ["example.com", host])
                let app = try h.app(user: h.user(Harness.megan), transport: try Self.transport(h, settings))
                _ = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
                #expect(try proxy.connectTargets().isEmpty)
            }
        }
    }

    @Test("missing or wrong proxy credentials and a dead proxy give errors naming the proxy, never the password")
    func proxyErrors() async throws {
        try await Tinyproxy.with(basicAuth: Self.credentials) { proxy in
            try await Self.withTLSHarness { h in
                let discovery = HTTPRequest(
                    method: .get,
                    url: h.emulator.baseURL.appendingPathComponent(
                        "organizations/v2.0/.well-known/openid-configuration"))
                let cases: [(URL, String)] = [
                    (proxy.url(), "asks for credentials (407)"),
                    (proxy.url(credentials: (Self.credentials.user, "wrong-pass-9")), "did not open a tunnel"),
                ]
                for (url, expected) in cases {
                    let transport = try Self.transport(h, try ProxySettings(https: url))
                    let error = await #expect(throws: MSALError.self) {
                        _ = try await transport.send(discovery, body: nil)
                    }
                    #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
                    #expect(error?.message.contains("127.0.0.1:\(proxy.port)") == true)
                    #expect(error?.message.contains("wrong-pass-9") == false)
                }
                let through = try Self.transport(h, try ProxySettings(https: proxy.url(credentials: Self.credentials)))
                #expect(try await through.send(discovery, body: nil).0.status == .ok)
            }
        }
        let dead = try #require(ClosedPort(try LoopbackPort.free()))
        let transport = try DefaultHTTPTransport(
            proxy: .settings(try ProxySettings(https: URL(string: "http://127.0.0.1:\(dead.port)")!)))
        let error = await #expect(throws: MSALError.self) {
            _ = try await transport.send(
                HTTPRequest(method: .get, url: URL(string: "https://login.microsoftonline.com/")!), body: nil)
        }
        #expect(
            error?.message.contains("Cannot connect to the proxy at 127.0.0.1:\(dead.port)") == true,
            "\(String(describing: error))")
    }
}
