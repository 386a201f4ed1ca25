import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import Locking
import MSAL
import NIOCore
import NIOPosix
import Testing

/// The redirect receiver is the app's to choose, as the browser is: the flow only builds the request
/// for the URI it listens at and checks what comes back.
@Suite("Redirect receivers: injectable, the loopback one by default")
struct RedirectReceiverTests {
    /// Receives through the loopback receiver and remembers the URI it listened at.
    final class ObservingReceiver: RedirectReceiver {
        let listenedAt = Locked<[String]>([])

        func receiveResponse(
            at redirectURI: String, timeout: Duration, begin: @Sendable (String) async throws -> Void
        ) async throws -> AuthorizationResponse {
            let response = try await LoopbackRedirectReceiver().receiveResponse(at: redirectURI, timeout: timeout) {
                uri in
                listenedAt.withLock { $0.append(uri) }
                try await begin(uri)
            }
            return response
        }
    }

    /// Answers at once, without a browser, as an app's custom-scheme handler might.
    struct CannedReceiver: RedirectReceiver {
        let parameters: [String: String]

        func receiveResponse(
            at redirectURI: String, timeout: Duration, begin: @Sendable (String) async throws -> Void
        ) async throws -> AuthorizationResponse {
            AuthorizationResponse(redirectURI: "myapp://auth", parameters: parameters)
        }
    }

    /// A web page or local process that sends forged redirects to the listener before the user's browser arrives.
    final class ForgingBrowser: BrowserLauncher {
        let real: AutomatedUser
        let http: HTTPClient
        let statuses = Locked<[UInt]>([])

        init(real: AutomatedUser, http: HTTPClient) {
            self.real = real
            self.http = http
        }

        func open(_ url: URL) async throws {
            guard
                let redirect = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first(where: {
                    $0.name == "redirect_uri"
                })?.value
            else { throw MSALError.internal(.invalidParameter, "no redirect_uri in the authorization request") }
            for forged in [
                "?error=access_denied&error_description=forged", "?code=forged-code&state=not-the-state",
                "?code=forged-code",
            ] {
                let response = try await http.execute(HTTPClientRequest(url: redirect + forged), timeout: .seconds(10))
                statuses.withLock { $0.append(response.status.code) }
            }
            try await real.open(url)
        }
    }

    @Test("forged redirects (an error, a code with another state, one with none) are refused; the real one signs in")
    func forgedRedirectsIgnored() async throws {
        try await Harness.with { h in
            var configuration = try PublicClientApplicationConfiguration(
                clientID: h.ids.publicClient, authority: h.authority("organizations"))
            let browser = ForgingBrowser(real: h.user(Harness.megan), http: h.http)
            configuration.browser = browser
            configuration.clock = h.clock
            configuration.interactiveTimeout = .seconds(30)
            let app = try PublicClientApplication(configuration: configuration)
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            #expect(result.account.username == "MeganB@contoso.onmicrosoft.com")
            #expect(browser.statuses.withLock { $0 } == [400, 400, 400])
            #expect(try await h.tokenRequests() == ["authorization_code"])
        }
    }

    @Test("localhost is received on [::1] too; a program already listening there stops the sign-in")
    func ipv6Loopback() async throws {
        // The redirect arrives on ::1, as from a browser that tries IPv6 first.
        let response = try await LoopbackRedirectReceiver().receiveResponse(
            at: "http://localhost", state: "s1", timeout: .seconds(30)
        ) { listening in
            let port = try #require(URLComponents(string: listening)?.port)
            let answer = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://[::1]:\(port)/?code=c1&state=s1"), timeout: .seconds(10))
            #expect(answer.status == .ok)
        }
        #expect(response.parameters["code"] == "c1")

        // Another program holds [::1] on the port the redirect URI names: no sign-in on a port it could read.
        // A port free on 127.0.0.1 (other tests' servers come and go there), then taken on [::1].
        let probe = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(probe.localAddress?.port)
        try await probe.close()
        let squatter = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "::1", port: port).get()
        let error = await #expect(throws: MSALError.self) {
            try await LoopbackRedirectReceiver().receiveResponse(
                at: "http://localhost:\(port)", state: "s2", timeout: .seconds(5)
            ) { _ in Issue.record("the sign-in must not start") }
        }
        #expect(error?.internalCode == .transportFailed)
        #expect(error?.message.contains("[::1]:\(port)") == true)
        try await squatter.close()
    }

    @Test("a sign-in goes through the configured receiver, which names the URI the request and redemption use")
    func configuredReceiver() async throws {
        try await Harness.with { h in
            let receiver = ObservingReceiver()
            let app = try h.app(user: h.user(Harness.megan), redirectReceiver: receiver)
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            #expect(result.source == .identityProvider)
            let uri = try #require(receiver.listenedAt.withLock { $0.first })
            #expect(uri.hasPrefix("http://localhost:") && !uri.hasSuffix(":0"))
            #expect(try await h.tokenRequests() == ["authorization_code"])
        }
    }

    @Test("an error the receiver brings back is the caller's, and no code is redeemed")
    func receiverError() async throws {
        try await Harness.with { h in
            let app = try h.app(
                redirectReceiver: CannedReceiver(parameters: [
                    "error": "access_denied", "error_description": "the user canceled",
                ]))
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(error.code == .userCanceled, "\(error)")
            #expect(try await h.tokenRequests().isEmpty)
        }
    }

    @Test("a response whose state is not the request's is refused")
    func wrongState() async throws {
        try await Harness.with { h in
            let app = try h.app(redirectReceiver: CannedReceiver(parameters: ["code": "0.AX", "state": "forged"]))
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(error.internalCode == .invalidState, "\(error)")
            #expect(try await h.tokenRequests().isEmpty)
        }
    }

    @Test("the loopback receiver refuses a redirect URI that is not http on loopback, before listening")
    func loopbackOnly() async throws {
        for uri in ["https://localhost", "http://example.com/callback", "myapp://auth"] {
            let error = try await #require(throws: MSALError.self) {
                try await LoopbackRedirectReceiver().receiveResponse(at: uri, timeout: .seconds(1)) { _ in
                    Issue.record("began for \(uri)")
                }
            }
            #expect(error.internalCode == .invalidRedirectURI, "\(uri)")
        }
    }
}
