import Foundation
import IdentityEmulator
import TestServers
import Testing

/// `msal login` completed by a real browser: headless Chromium, driven over WebDriver, fills in the
/// emulator's sign-in page and follows the redirect to msal's loopback listener.
@Suite("msal login in a real browser", .timeLimit(.minutes(5)))
struct RealBrowserTests {
    @Test("headless Chromium signs in through the emulator's pages and msal login completes")
    func chromiumSignsIn() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let login = try sandbox.start(["login", "--no-browser"])
            let url = try await login.waitForOutput {
                CLICommandTests.match(#"(http://\S+/oauth2/v2.0/authorize\S+)"#, in: $0)
            }
            let finalPage = try await WebDriver.withHeadlessChromium { browser in
                try await browser.open(URL(string: url)!)
                #expect(try await browser.pageSource.contains("id=\"signin\""))
                try await browser.signInOnEmulatorPage(
                    username: CLICommandTests.megan.0, password: CLICommandTests.megan.1)
                return (url: try await browser.currentURL, source: try await browser.pageSource)
            }
            let result = try await login.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Signed in as Megan Bowen <MeganB@contoso.onmicrosoft.com>"))
            #expect(finalPage.url.hasPrefix("http://localhost:"), "the browser ended on \(finalPage.url)")
            #expect(finalPage.source.contains("Authentication complete"))
        }
    }
}
