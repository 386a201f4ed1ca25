import Foundation
import IdentityEmulator
import MSAL
import Testing

/// `emulator-browser`, the scripted user for `$BROWSER`: a sign-in the page refuses is a failure with the page's
/// error, never a cancel that the app would take for the user's choice.
@Suite("emulator-browser", .timeLimit(.minutes(2)))
struct EmulatorBrowserTests {
    /// emulator-browser ended; the receiver stops listening with its result.
    struct BrowserEnded: Error {
        let result: CLIResult
    }

    @Test(
        "a refused sign-in (wrong password, an account the tenant lacks) exits non-zero with the page's error",
        arguments: [
            ("MeganB@contoso.onmicrosoft.com", "Not-Her-Password-1", "AADSTS50126"),
            ("jane@example.com", "Jane-Demo-Pass4", "AADSTS50020"),
        ])
    func refusedSignIn(username: String, password: String, code: String) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let authorize = emulator.authority("contoso.onmicrosoft.com").appendingPathComponent(
                "oauth2/v2.0/authorize")
            // The app listens, as msal login does: a browser that cancels would come back here and exit 0.
            let ended = await #expect(throws: BrowserEnded.self) {
                try await LoopbackRedirectReceiver().receiveResponse(at: "http://localhost", timeout: .seconds(60)) {
                    redirectURI in
                    var url = URLComponents(url: authorize, resolvingAgainstBaseURL: false)!
                    url.queryItems = [
                        .init(name: "client_id", value: Directory.DemoIDs.publicClient),
                        .init(name: "response_type", value: "code"), .init(name: "redirect_uri", value: redirectURI),
                        .init(name: "scope", value: "openid profile"), .init(name: "state", value: "browser-test"),
                        .init(name: "code_challenge", value: String(repeating: "c", count: 43)),
                        .init(name: "code_challenge_method", value: "S256"),
                    ]
                    throw BrowserEnded(
                        result: try await CLIProcess.run(
                            Binaries.url("emulator-browser"),
                            [url.url!.absoluteString, "--username", username, "--password", password],
                            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]))
                }
            }
            let result = try #require(ended?.result)
            #expect(result.status != 0)
            #expect(result.stderr.contains(code), "\(result.stderr)")
            #expect(!result.stderr.contains(username), "the username stays out of the output")
        }
    }
}
