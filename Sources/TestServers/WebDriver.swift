import AsyncHTTPClient
import Foundation
import NIOCore

/// Just enough of W3C WebDriver to drive headless Chromium through chromedriver: open a page, type
/// into fields, click buttons, read the page, take a screenshot. Chromium and chromedriver come from Debian's packages
/// (`scripts/test` installs them).
package final class WebDriver: Sendable {
    static let chromedriver = "/usr/bin/chromedriver"
    static let chromium = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]

    private let driver: DriverProcess
    private let base: URL
    private let session: String
    private let http: HTTPClient
    private let profile: URL

    private init(driver: DriverProcess, base: URL, session: String, http: HTTPClient, profile: URL) {
        self.driver = driver
        self.base = base
        self.session = session
        self.http = http
        self.profile = profile
    }

    /// Starts chromedriver on an ephemeral port and a headless Chromium session, runs `body`, and
    /// stops both whatever happens.
    ///
    /// - Throws: with the install command when Chromium or chromedriver is missing.
    package static func withHeadlessChromium<T: Sendable>(_ body: (WebDriver) async throws -> T) async throws -> T {
        guard FileManager.default.isExecutableFile(atPath: chromedriver),
            let browser = chromium.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw BrowserFailure(
                "Chromium is not installed: run scripts/test once, or `apt-get install -y chromium chromium-driver`.")
        }
        let (driver, port) = try await startDriver()
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        do {
            let base = URL(string: "http://127.0.0.1:\(port)")!
            let capabilities: [String: Any] = [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        "goog:chromeOptions": [
                            "binary": browser,
                            "args": [
                                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--no-first-run", "--user-data-dir=\(profile.path)",
                            ],
                        ],
                    ]
                ]
            ]
            let created = try await request(http, "POST", base.appendingPathComponent("session"), capabilities)
            guard let session = (created["value"] as? [String: Any])?["sessionId"] as? String else {
                throw BrowserFailure("chromedriver did not start a session: \(created)")
            }
            let webDriver = WebDriver(driver: driver, base: base, session: session, http: http, profile: profile)
            // Finding an element waits for it to appear (a page a click navigates to may not have loaded yet), as long
            // as a slow machine needs: the bound only ends a test that has already failed.
            _ = try? await webDriver.command("POST", "timeouts", ["implicit": 600_000])
            do {
                let value = try await body(webDriver)
                await webDriver.quit()
                return value
            } catch {
                await webDriver.quit()
                throw error
            }
        } catch {
            driver.kill()
            driver.finish()
            try? await http.shutdown()
            throw error
        }
    }

    /// Starts chromedriver on an ephemeral port. Given port 0, chromedriver binds one address family and
    /// then the same port on the other, and exits ("IPv4 port not available") when another process took
    /// that port in between, as the suite's many port-0 listeners sometimes do; it is then started again.
    ///
    /// - Returns: the running chromedriver and its port.
    private static func startDriver(attempts: Int = 3) async throws -> (DriverProcess, String) {
        var attempt = 1
        while true {
            let driver = try DriverProcess(chromedriver, ["--port=0"])
            do {
                return (driver, try await driver.port())
            } catch {
                driver.kill()
                driver.finish()
                guard attempt < attempts, (error as? BrowserFailure)?.description.contains("port not available") == true
                else { throw error }
                attempt += 1
            }
        }
    }

    package func open(_ url: URL) async throws {
        _ = try await command("POST", "url", ["url": url.absoluteString])
    }

    /// Types into the field that `selector` (CSS) finds.
    package func type(_ text: String, into selector: String) async throws {
        _ = try await command("POST", "element/\(try await element(selector))/value", ["text": text])
    }

    package func click(_ selector: String) async throws {
        _ = try await command("POST", "element/\(try await element(selector))/click", [:])
    }

    /// Fills in the identity emulator's sign-in page, the page open now, and submits it.
    package func signInOnEmulatorPage(username: String, password: String) async throws {
        try await type(username, into: "#username")
        try await type(password, into: "#password")
        try await click("#signin")
    }

    /// Returns once an element `selector` (CSS) finds is on the page: the page a click or a redirect leads to has
    /// loaded.
    ///
    /// - Throws: ``BrowserFailure`` when none appears within the session's 10 minutes.
    package func waitFor(_ selector: String) async throws {
        _ = try await element(selector)
    }

    /// Sets the browser window's size in CSS pixels, so that screenshots have a known size.
    package func resizeWindow(width: Int, height: Int) async throws {
        _ = try await command("POST", "window/rect", ["width": width, "height": height])
    }

    /// A PNG of what the window shows now.
    package func screenshot() async throws -> Data {
        guard let encoded = try await command("GET", "screenshot", nil)["value"] as? String,
            let png = Data(base64Encoded: encoded)
        else { throw BrowserFailure("chromedriver returned no screenshot") }
        return png
    }

    package var currentURL: String {
        get async throws { try await command("GET", "url", nil)["value"] as? String ?? "" }
    }

    package var pageSource: String {
        get async throws { try await command("GET", "source", nil)["value"] as? String ?? "" }
    }

    private func element(_ selector: String) async throws -> String {
        let found = try await command("POST", "element", ["using": "css selector", "value": selector])
        guard let value = found["value"] as? [String: Any], let id = value.values.first as? String else {
            throw BrowserFailure("no element \(selector) on \(try await currentURL): \(found)")
        }
        return id
    }

    private func command(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> [String: Any] {
        try await Self.request(http, method, base.appendingPathComponent("session/\(session)/\(path)"), body)
    }

    private func quit() async {
        _ = try? await Self.request(http, "DELETE", base.appendingPathComponent("session/\(session)"), nil)
        driver.kill()
        driver.finish()
        try? await http.shutdown()
        try? FileManager.default.removeItem(at: profile)
    }

    private static func request(_ http: HTTPClient, _ method: String, _ url: URL, _ body: [String: Any]?) async throws
        -> [String: Any]
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await http.execute(request, timeout: .seconds(60))
        let data = try await response.body.collect(upTo: 16 << 20)
        let object = try JSONSerialization.jsonObject(with: Data(data.readableBytesView)) as? [String: Any] ?? [:]
        guard response.status == .ok else {
            throw BrowserFailure("WebDriver \(method) \(url.path): HTTP \(response.status.code) \(object)")
        }
        return object
    }
}
