import Foundation
import IdentityEmulator
import Locking
import Testing

@testable import MSAL

/// `extraQueryParameters` on the authorize, token and device code requests, and `extraScopesToConsent`, against
/// the emulator.
@Suite("Extra query parameters and extra scopes to consent")
struct ExtraParametersTests {
    /// Records the URL it opens, then lets `inner` (the scripted user) sign in.
    final class ObservingBrowser: BrowserLauncher {
        let inner: any BrowserLauncher
        private let url = Locked<URL?>(nil)
        init(_ inner: any BrowserLauncher) { self.inner = inner }
        var opened: [String: String] {
            let items =
                url.withLock { $0 }.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?
                .queryItems ?? []
            return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        }
        func open(_ url: URL) async throws {
            self.url.withLock { $0 = url }
            try await inner.open(url)
        }
    }

    @Test("extraScopesToConsent: asked for on /authorize, the token is for the scopes; later no consent is needed")
    func extraScopesToConsent() async throws {
        try await Harness.with { h in
            let transport = try IdentityPlatformClientTests.RecordingTransport()
            let browser = ObservingBrowser(h.user(Harness.megan))
            var configuration = try IdentityPlatformClientTests.configuration(
                h, client: h.ids.publicClient, tenant: "organizations", transport: transport)
            configuration.browser = browser
            let app = try PublicClientApplication(configuration: configuration)
            var parameters = InteractiveParameters(scopes: ["User.Read"])
            parameters.extraScopesToConsent = ["Mail.Read"]
            let result = try await app.acquireTokenInteractively(parameters)
            #expect(browser.opened["scope"] == "User.Read Mail.Read openid profile offline_access")
            let form = FormEncoding.decode(String(decoding: try #require(transport.tokenForms.first), as: UTF8.self))
            #expect(form["scope"] == "User.Read openid profile offline_access")
            #expect(result.scopes.map { $0.lowercased() }.contains("user.read"))
            let mail = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["Mail.Read"], account: result.account))
            #expect(mail.scopes.map { $0.lowercased() }.contains("mail.read"))
        }
    }

    @Test("without extraScopesToConsent the same silent request needs the user's consent")
    func withoutExtraScopes() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(SilentParameters(scopes: ["Mail.Read"], account: result.account))
            }
            #expect(error.code == .interactionRequired)
        }
    }

    @Test("extraQueryParameters: on /authorize and the code redemption's URL, a silent refresh's, and device code's")
    func everyRequest() async throws {
        try await Harness.with { h in
            let transport = try IdentityPlatformClientTests.RecordingTransport()
            let browser = ObservingBrowser(h.user(Harness.megan))
            var configuration = try IdentityPlatformClientTests.configuration(
                h, client: h.ids.publicClient, tenant: "organizations", transport: transport)
            configuration.browser = browser
            let app = try PublicClientApplication(configuration: configuration)
            let extra = ["slice": "testslice", "dc": "ESTS-PUB-WUS2"]
            var interactive = InteractiveParameters(scopes: ["User.Read"])
            interactive.extraQueryParameters = extra
            let result = try await app.acquireTokenInteractively(interactive)
            #expect(browser.opened["slice"] == "testslice")
            #expect(browser.opened["dc"] == "ESTS-PUB-WUS2")
            var silent = SilentParameters(scopes: ["User.Read"], account: result.account, forceRefresh: true)
            silent.extraQueryParameters = extra
            _ = try await app.acquireTokenSilently(silent)
            var deviceCode = DeviceCodeParameters(scopes: ["User.Read"])
            deviceCode.extraQueryParameters = extra
            _ = try await #require(throws: CancellationError.self) {
                try await app.acquireTokenByDeviceCode(deviceCode) { _ in throw CancellationError() }
            }
            let queries = transport.requests.compactMap(\.url).filter {
                $0.path.hasSuffix("/token") || $0.path.hasSuffix("/devicecode")
            }.map { "\($0.lastPathComponent)?\($0.query ?? "")" }
            #expect(
                queries == [
                    "token?dc=ESTS-PUB-WUS2&slice=testslice", "token?dc=ESTS-PUB-WUS2&slice=testslice",
                    "devicecode?dc=ESTS-PUB-WUS2&slice=testslice",
                ])
        }
    }
}
