import Foundation
import IdentityEmulator
import TestServers
import Testing

/// `msal` honours the proxy variables as curl does, through a real tinyproxy, except for managed identity, whose
/// endpoints are on the host.
@Suite("msal through a proxy (HTTP_PROXY, NO_PROXY)")
struct ProxyCommandTests {
    @Test("login and a forced refresh go through the proxy named by http_proxy; a NO_PROXY host does not")
    func throughTheProxy() async throws {
        let credentials = (user: "msal", password: "proxy-pass-2")
        try await Tinyproxy.with(basicAuth: credentials) { proxy in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                let sandbox = try CLISandbox(emulator: emulator)
                defer { sandbox.remove() }
                let target = "\(emulator.baseURL.host ?? ""):\(emulator.port)"
                let proxied = ["http_proxy": proxy.url(credentials: credentials).absoluteString]
                let browser = ["BROWSER": CLISandbox.browser("MeganB@contoso.onmicrosoft.com", "Megan-Demo-Pass1")]

                let login = try await sandbox.msal(["login"], browser.merging(proxied) { $1 })
                #expect(login.status == 0, "\(login.stderr)")
                let afterLogin = try proxy.connectTargets()
                #expect(!afterLogin.isEmpty && afterLogin.allSatisfy { $0 == target }, "\(afterLogin)")

                let refresh = try await sandbox.msal(["token", "--force-refresh"], proxied)
                #expect(refresh.status == 0, "\(refresh.stderr)")
                let afterRefresh = try proxy.connectTargets()
                #expect(afterRefresh.count > afterLogin.count)

                let direct = try await sandbox.msal(
                    ["token", "--force-refresh"], proxied.merging(["NO_PROXY": "127.0.0.1,localhost"]) { $1 })
                #expect(direct.status == 0, "\(direct.stderr)")
                #expect(try proxy.connectTargets().count == afterRefresh.count)

                let wrong = try await sandbox.msal(
                    ["token", "--force-refresh"],
                    ["HTTP_PROXY": proxy.url(credentials: (credentials.user, "not-it-3")).absoluteString])
                #expect(wrong.status == 5, "\(wrong.stderr)")
                #expect(wrong.stderr.contains("proxy at 127.0.0.1:\(proxy.port)"), "\(wrong.stderr)")
                #expect(!wrong.stderr.contains("not-it-3"))

                let invalid = try await sandbox.msal(["token"], ["HTTPS_PROXY": "socks5://127.0.0.1:1080"])
                #expect(invalid.status != 0)
                #expect(invalid.stderr.contains("HTTPS_PROXY"), "\(invalid.stderr)")
            }
        }
    }

    @Test("app token --managed-identity reaches IMDS and App Service directly, with or without a CA bundle")
    func managedIdentityBypassesTheProxy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-mi-proxy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Tinyproxy.with { proxy in
            let proxied = ["HTTP_PROXY": proxy.url().absoluteString, "HTTPS_PROXY": proxy.url().absoluteString]
            for tlsDirectory in [nil, folder.appendingPathComponent("tls")] {
                try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: tlsDirectory)) {
                    emulator in
                    let sandbox = try CLISandbox(emulator: emulator)
                    defer { sandbox.remove() }
                    let bundle = emulator.caCertificateFile.map { ["--ca-bundle", $0.path] } ?? []
                    let before = try proxy.requests()
                    for host in ["vm-1", "app-1"] {
                        let environment = try #require(emulator.managedIdentityEnvironment(host: host))
                        let token = try await sandbox.msal(
                            ["app", "token", "--managed-identity", "--resource", "https://graph.microsoft.com"]
                                + bundle, environment.merging(proxied) { $1 })
                        #expect(token.status == 0, "\(host) \(bundle): \(token.stderr)")
                        #expect(token.stdout.hasPrefix("ey"), "\(host) \(bundle): a token")
                    }
                    #expect(try proxy.requests() == before, "\(bundle): the proxy saw a managed identity request")

                    // The control: msal's other requests take the same variables through the proxy.
                    let accounts = try await sandbox.msal(["accounts"] + bundle, proxied)
                    #expect(accounts.status == 0, "\(accounts.stderr)")
                    #expect(try proxy.requests().count > before.count)
                }
            }
        }
    }
}
