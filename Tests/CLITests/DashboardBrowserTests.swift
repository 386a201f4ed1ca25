import AsyncHTTPClient
import Foundation
import IdentityEmulator
import NIOCore
import TestServers
import Testing

/// The emulator's dashboard in a real browser: headless Chromium, over WebDriver, adds a user on the users page, signs
/// in as that user (device code, on the emulator's pages), and sees the requests appear in the request log; a
/// screenshot of each page is saved under `.build/test-artifacts/dashboard/` (or the folder
/// `EMULATOR_DASHBOARD_SCREENSHOTS` names) and its path printed.
@Suite("The emulator's dashboard in a real browser, with screenshots", .timeLimit(.minutes(5)))
struct DashboardBrowserTests {
    static let folder: URL = {
        if let named = ProcessInfo.processInfo.environment["EMULATOR_DASHBOARD_SCREENSHOTS"], !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-artifacts/dashboard")
    }()

    /// Saves what the window shows as `name`.png, checked to be a PNG, and prints its path.
    static func save(_ browser: WebDriver, _ name: String) async throws {
        let png = try await browser.screenshot()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) is no PNG")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(name).png")
        try png.write(to: file)
        print("screenshot: \(file.path) (\(png.count) bytes)")
    }

    /// A form post to the emulator, answered as JSON.
    static func post(_ url: URL, _ fields: [(String, String)]) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let body = fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
        }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let data = try await response.body.collect(upTo: 1 << 20)
        return try JSONSerialization.jsonObject(with: Data(data.readableBytesView)) as? [String: Any] ?? [:]
    }

    @Test("add a user on the page, sign in as them with a device code, see the requests in the log")
    func addUserSignInSeeRequests() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let base = emulator.baseURL
            let page = { (path: String) in URL(string: base.absoluteString + path)! }
            let client = Directory.DemoIDs.publicClient
            let (upn, password) = ("robin@contoso.onmicrosoft.com", "Robin-Pass-1")
            try await WebDriver.withHeadlessChromium { browser in
                try await browser.resizeWindow(width: 1280, height: 900)
                try await browser.open(page("/_emulator/"))
                try await browser.waitFor("#applications")
                try await Self.save(browser, "1-tenants-and-applications")
                try await browser.open(page("/_emulator/ui/apps/\(client)"))
                #expect(try await browser.pageSource.contains("MSALPublicClientApplicationConfig"))
                try await Self.save(browser, "2-connect-your-app")

                try await browser.open(page("/_emulator/ui/users"))
                try await browser.type(upn, into: "#userPrincipalName")
                try await browser.type("Robin Park", into: "#displayName")
                try await browser.type(password, into: "#password")
                try await browser.click("#add-user")
                try await browser.waitFor("#notice")
                #expect(try await browser.pageSource.contains("The user was added."))
                let userPage = try await browser.currentURL
                try await Self.save(browser, "3-user-added")

                let started = try await Self.post(
                    page("/organizations/oauth2/v2.0/devicecode"),
                    [("client_id", client), ("scope", "User.Read openid profile offline_access")])
                let userCode = try #require(started["user_code"] as? String)
                let deviceCode = try #require(started["device_code"] as? String)
                try await browser.open(page("/devicelogin"))
                try await browser.type(userCode, into: "#otc")
                try await browser.click("#next")
                try await browser.signInOnEmulatorPage(username: upn, password: password)
                try await browser.waitFor("#message")
                let tokens = try await Self.post(
                    page("/organizations/oauth2/v2.0/token"),
                    [
                        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("client_id", client),
                        ("device_code", deviceCode),
                    ])
                let accessToken = try #require(tokens["access_token"] as? String, "\(tokens)")
                let refreshToken = try #require(tokens["refresh_token"] as? String)

                try await browser.open(page("/_emulator/ui/log"))
                try await browser.waitFor("#requests")
                let log = try await browser.pageSource
                for text in [
                    "/organizations/oauth2/v2.0/devicecode", "/devicelogin",
                    "urn:ietf:params:oauth:grant-type:device_code", upn,
                ] {
                    #expect(log.contains(text), "the log lacks \(text)")
                }
                #expect(!log.contains(accessToken) && !log.contains(refreshToken) && !log.contains(password))
                try await Self.save(browser, "4-request-log")
                // The newest row's page, opened by its address: the page's script replaces the table every 2 s, so an
                // element found before a replacement is stale when clicked after it.
                let newest = try #require(
                    log.firstMatch(of: #/href="(?<path>/_emulator/ui/log/\d+)"/#).map { String($0.output.path) })
                try await browser.open(page(newest))
                try await browser.waitFor("#answer-body")
                let exchange = try await browser.pageSource
                #expect(exchange.contains("••••") && !exchange.contains(accessToken))
                try await Self.save(browser, "5-request-and-answer")

                try await browser.open(URL(string: userPage)!)
                try await browser.waitFor("#refresh-tokens")
                try await Self.save(browser, "6-user-sessions-and-refresh-tokens")
                try await browser.open(page("/_emulator/ui/inspector"))
                try await browser.type(accessToken, into: "#token")
                try await browser.click("#inspect")
                try await browser.waitFor("#signature")
                #expect(try await browser.pageSource.contains("Signature verified"))
                try await Self.save(browser, "7-token-inspector")
                try await browser.open(page("/_emulator/ui/controls"))
                try await browser.waitFor("#rotate-keys")
                try await Self.save(browser, "8-faults-clock-keys-reset")
                try await browser.open(page("/_emulator/ui/outbox"))
                try await Self.save(browser, "9-outbox")
            }
        }
    }
}
