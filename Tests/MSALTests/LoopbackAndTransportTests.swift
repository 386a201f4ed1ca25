import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import Locking
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import MSAL

@Suite("Loopback receiver, interactive timeout and cancellation, scripted transport (tier 2)")
struct LoopbackAndTransportTests {
    private func get(_ url: String, method: HTTPMethod = .GET, body: String? = nil) async throws -> (Int, String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 16)))
    }

    @Test(
        "the receiver ignores stray requests, accepts the first result, answers later ones without accepting, and never echoes input"
    )
    func receiver() async throws {
        let receiver = try await LoopbackRedirectListener.start(path: "/callback")
        let base = "http://127.0.0.1:\(receiver.port)"
        let (stray, _) = try await get("\(base)/favicon.ico")
        #expect(stray == 404)
        let (wrongPath, _) = try await get("\(base)/other?code=x")
        #expect(wrongPath == 404)
        let (status, page) = try await get("\(base)/callback?code=abc&state=<script>alert(1)</script>")
        #expect(status == 200)
        #expect(page.contains("You can close this window"))
        #expect(!page.contains("<script>"))
        let (second, secondPage) = try await get("\(base)/callback?code=evil&state=s")
        #expect(second == 200)
        #expect(secondPage.contains("already received"))
        let result = try await receiver.redirect(timeout: .seconds(5))
        #expect(result["code"] == "abc")
        await receiver.close()
    }

    @Test("the receiver accepts a form_post response")
    func formPost() async throws {
        let receiver = try await LoopbackRedirectListener.start(path: "/")
        _ = try await get("http://127.0.0.1:\(receiver.port)/", method: .POST, body: "code=posted&state=s1")
        let result = try await receiver.redirect(timeout: .seconds(5))
        #expect(result["code"] == "posted")
        #expect(result["state"] == "s1")
        await receiver.close()
    }

    @Test("an interactive sign-in nobody finishes times out and closes its listener")
    func interactiveTimeout() async throws {
        try await Harness.with { h in
            let browser = RecordingBrowser()
            var configuration = try h.app().configuration
            configuration.browser = browser
            configuration.interactiveTimeout = .milliseconds(200)
            let app = try PublicClientApplication(configuration: configuration)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(error.internalCode == .timedOut)
            let url = try #require(browser.opened)
            let redirect = try #require(
                URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first {
                    $0.name == "redirect_uri"
                }?.value)
            let port = try #require(URLComponents(string: redirect)?.port)
            await #expect(throws: (any Error).self) {
                _ = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(
                    host: "127.0.0.1", port: port
                ).get()
            }
        }
    }

    @Test("cancelling an interactive sign-in ends it with CancellationError")
    func interactiveCancellation() async throws {
        try await Harness.with { h in
            let (opened, signal) = AsyncStream<Void>.makeStream()
            var configuration = try h.app().configuration
            configuration.browser = SignallingBrowser(signal: signal)
            let app = try PublicClientApplication(configuration: configuration)
            let task = Task {
                defer { signal.finish() }
                return try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            for await _ in opened { break }
            task.cancel()
            await #expect(throws: CancellationError.self) { _ = try await task.value }
        }
    }

    @Test("the authorize URL carries PKCE S256, state, nonce, client_info and the decorated scopes")
    func authorizeURL() async throws {
        try await Harness.with { h in
            let browser = RecordingBrowser()
            var configuration = try h.app().configuration
            configuration.browser = browser
            configuration.interactiveTimeout = .milliseconds(100)
            let app = try PublicClientApplication(configuration: configuration)
            var parameters = InteractiveParameters(scopes: ["User.Read"], prompt: .selectAccount, loginHint: "a@b.c")
            parameters.domainHint = "contoso.com"
            parameters.extraQueryParameters = ["mkt": "de-DE"]
            _ = try? await app.acquireTokenInteractively(parameters)
            let items = Dictionary(
                uniqueKeysWithValues: (URLComponents(url: try #require(browser.opened), resolvingAgainstBaseURL: false)?
                    .queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(items["code_challenge_method"] == "S256")
            #expect(items["code_challenge"]?.count == 43)
            #expect((items["state"]?.count ?? 0) >= 16)
            #expect((items["nonce"]?.count ?? 0) >= 16)
            #expect(items["client_info"] == "1")
            #expect(items["scope"] == "User.Read openid profile offline_access")
            #expect(items["prompt"] == "select_account")
            #expect(items["login_hint"] == "a@b.c")
            #expect(items["domain_hint"] == "contoso.com")
            #expect(items["mkt"] == "de-DE")
            #expect(items["redirect_uri"]?.hasPrefix("http://localhost:") == true)
        }
    }

    @Test(
        "an unknown Entra host is validated with instance discovery; invalid_instance fails validation (scripted transport)"
    )
    func instanceDiscoveryRefusal() async throws {
        let transport = ScriptedTransport([
            (
                HTTPResponse(status: .badRequest, headerFields: [.contentType: "application/json"]),
                Data(
                    #"{"error":"invalid_instance","error_description":"AADSTS50049: Unknown or invalid instance.","error_codes":[50049]}"#
                        .utf8)
            )
        ])
        var configuration = try PublicClientApplicationConfiguration(
            clientID: "c", authority: Authority("https://login.evil.example/common", kind: .aad))
        configuration.transport = transport
        let app = try PublicClientApplication(configuration: configuration)
        let error = try await #require(throws: MSALError.self) { try await app.accounts() }
        #expect(error.internalCode == .failedAuthorityValidation)
        #expect(error.oauthError == "invalid_instance")
        let sent = try #require(transport.requests.first)
        #expect(
            sent.url?.absoluteString.hasPrefix(
                "https://login.microsoftonline.com/common/discovery/instance?api-version=1.1&authorization_endpoint=https://login.evil.example/common/oauth2/v2.0/authorize"
            ) == true)
    }

    @Test("known authorities skip instance discovery")
    func knownAuthoritiesSkipValidation() async throws {
        let authority = try Authority("https://login.contoso-sovereign.example/common", kind: .aad)
        let transport = ScriptedTransport([(HTTPResponse(status: .internalServerError), Data())])
        var configuration = try PublicClientApplicationConfiguration(clientID: "c", authority: authority)
        configuration.knownAuthorities = [authority]
        configuration.transport = transport
        let app = try PublicClientApplication(configuration: configuration)
        _ = try? await app.accounts()
        #expect(
            transport.requests.first?.url?.absoluteString
                == "https://login.contoso-sovereign.example/common/v2.0/.well-known/openid-configuration")
    }
}

/// Records the URL it was asked to open and does nothing else (nobody signs in).
final class RecordingBrowser: BrowserLauncher, Sendable {
    private let url = Locked<URL?>(nil)

    var opened: URL? { url.withLock { $0 } }

    func open(_ url: URL) async throws { self.url.withLock { $0 = url } }
}

/// Tells the test the sign-in page was opened (the flow is now waiting for the redirect).
struct SignallingBrowser: BrowserLauncher {
    let signal: AsyncStream<Void>.Continuation

    func open(_ url: URL) async throws { signal.yield() }
}

/// Answers requests with canned responses in order and records what was sent.
final class ScriptedTransport: HTTPTransport, Sendable {
    private let responses: Locked<[(HTTPResponse, Data)]>
    private let sent = Locked<[HTTPRequest]>([])

    init(_ responses: [(HTTPResponse, Data)]) { self.responses = Locked(responses) }

    var requests: [HTTPRequest] { sent.withLock { $0 } }

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        sent.withLock { $0.append(request) }
        return try responses.withLock { list in
            guard !list.isEmpty else { throw MSALError.internal(.transportFailed, "no scripted response left") }
            return list.removeFirst()
        }
    }
}

@Suite("Browser launching, browser sign-out, discovery caching, device-code cancellation")
struct BrowserAndLifecycleTests {
    @Test("$BROWSER entries (with %s) are tried in order, instead of xdg-open (open on macOS)")
    func browserCommands() throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/authorize?x=1"))
        let commands = SystemBrowserLauncher.commands(
            for: url, environment: ["BROWSER": "chromium --headless %s:firefox"])
        #expect(commands == [["chromium", "--headless", url.absoluteString], ["firefox", url.absoluteString]])
        #if os(Linux)
            #expect(SystemBrowserLauncher.opener == "xdg-open")
        #else
            #expect(SystemBrowserLauncher.opener == "/usr/bin/open")
        #endif
        let opener = [[SystemBrowserLauncher.opener, url.absoluteString]]
        #expect(SystemBrowserLauncher.commands(for: url, environment: [:]) == opener)
        #expect(SystemBrowserLauncher.commands(for: url, environment: ["BROWSER": " : "]) == opener)
    }

    @Test("signing out from the browser opens the end-session page after forgetting the account")
    func browserSignOut() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            let browser = RecordingBrowser()
            var configuration = app.configuration
            configuration.browser = browser
            let sameCache = try PublicClientApplication(configuration: configuration)
            try await sameCache.signOut(first.account, fromBrowser: true)
            let opened = try #require(browser.opened)
            #expect(opened.path.hasSuffix("/oauth2/v2.0/logout"))
            #expect(try await app.accounts().isEmpty)
        }
    }

    @Test("discovery is fetched once per authority")
    func discoveryOnce() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            for _ in 0..<5 {
                _ = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: first.account))
            }
            _ = try await app.accounts()
            let log = try await h.admin("GET", "requests?path=/.well-known/openid-configuration")
            let requests = (log["requests"] as? [[String: Any]]) ?? []
            #expect(requests.count == 2)
        }
    }

    @Test("cancelling device-code polling ends it with CancellationError")
    func deviceCodeCancellation() async throws {
        try await Harness.with { h in
            let (shown, signal) = AsyncStream<Void>.makeStream()
            let app = try h.app()
            let task = Task {
                defer { signal.finish() }
                return try await app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: ["User.Read"])) { _ in
                    signal.yield()
                }
            }
            for await _ in shown { break }
            task.cancel()
            await #expect(throws: CancellationError.self) { _ = try await task.value }
        }
    }
}

@Suite("A configuration's default transport")
struct DeferredDefaultTransportTests {
    @Test("the default transport reads the proxy variables once, when the app is made, not with the configuration")
    func proxyReadWithTheApp() async throws {
        let reads = Locked(0)
        let malformed = DeferredDefaultTransport {
            reads.withLock { $0 += 1 }
            return ["HTTPS_PROXY": "ftp://proxy.example:21"]
        }
        #expect(reads.withLock { $0 } == 0)
        #expect(throws: MSALError.self) { try malformed.make() }
        let request = HTTPRequest(method: .get, url: URL(string: "https://login.microsoftonline.com/common")!)
        for _ in 0..<2 {
            let error = await #expect(throws: MSALError.self) { try await malformed.send(request, body: nil) }
            #expect(error?.code == .invalidParameter)
            #expect(error?.message.contains("HTTPS_PROXY") == true, "\(String(describing: error))")
        }
        #expect(reads.withLock { $0 } == 1, "the variables are read once")

        // Making a configuration reads no proxy variable: its default transport is made with the app.
        #expect(try PublicClientApplicationConfiguration(clientID: "c").transport is DeferredDefaultTransport)
        let authority = try Authority("https://login.microsoftonline.com/t")
        #expect(
            ConfidentialClientApplicationConfiguration(clientID: "c", credential: .secret("s"), authority: authority)
                .transport is DeferredDefaultTransport)
    }
}
