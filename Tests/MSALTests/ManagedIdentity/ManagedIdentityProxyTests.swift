import Foundation
import IdentityEmulator
import MSAL
import TestServers
import Testing

/// Managed identity connects directly unless the app gives a transport: the identity header, the Azure Arc key
/// and the tokens stay on the host. (With `HTTP_PROXY` set in a real process: `ProxyCommandTests`.)
@Suite("Managed identity: no proxy unless the app gives one")
struct ManagedIdentityProxyTests {
    @Test("the default transport connects directly; a transport the app gives, through a real tinyproxy, is used")
    func defaultIsDirect() async throws {
        let configuration = try ManagedIdentityApplicationConfiguration()
        let transport = try #require(configuration.transport as? DefaultHTTPTransport)
        #expect(transport.proxySettings == nil)

        try await Tinyproxy.with { proxy in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                var configuration = try ManagedIdentityApplicationConfiguration()
                configuration.environment = try #require(emulator.managedIdentityEnvironment(host: "vm-1"))
                configuration.arcAgentPath = "/nonexistent/himds"
                configuration.transport = try DefaultHTTPTransport(
                    proxy: .settings(try ProxySettings(http: proxy.url())))
                let app = try ManagedIdentityApplication(configuration: configuration)
                let token = try await app.acquireToken(
                    ManagedIdentityParameters(resource: "https://graph.microsoft.com"))
                #expect(!token.accessToken.isEmpty)
                // async-http-client tunnels plain HTTP through the proxy too.
                #expect(try proxy.requests() == ["CONNECT \(emulator.baseURL.host ?? ""):\(emulator.port)"])
            }
        }
    }
}
