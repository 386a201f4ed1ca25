import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdAuth
import IdentityEmulator
import MSAL
import MSALHummingbird
import Testing
import WebAppSample

/// The web app's sign-in routes over plain HTTP: the session cookie's attributes, a forged or stray redirect, and
/// return paths that could send the user elsewhere.
@Suite("Web-app sign-in routes", .timeLimit(.minutes(2)))
struct WebAppSignInTests {
    typealias IDs = Directory.DemoIDs

    static func withSite(_ body: @Sendable (URL, HTTPClient) async throws -> Void) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let web = WebAppSampleConfiguration(
                client: try ConfidentialClientApplicationConfiguration(
                    clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                    authority: Authority(emulator.authority(IDs.externalTenant).absoluteString)),
                graphBaseURL: emulator.baseURL.appendingPathComponent("v1.0/"),
                todoListURL: emulator.baseURL.appendingPathComponent("api1/todolist"),
                todoScope: "api://\(IDs.api1)/ToDoList.Read")
            try await WebAppSampleServer.withRunning(web) { site in
                let http = HTTPClient(
                    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                    configuration: .init(redirectConfiguration: .disallow))
                do {
                    try await body(site, http)
                    try await http.shutdown()
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
        }
    }

    static func get(_ http: HTTPClient, _ url: String, cookie: String? = nil) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: url)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        return try await http.execute(request, timeout: .seconds(30))
    }

    @Test("sign-in sets an HttpOnly, SameSite=Lax session cookie and sends the browser to the authorize endpoint")
    func signInCookie() async throws {
        try await Self.withSite { site, http in
            let response = try await Self.get(http, site.absoluteString + "/auth/signin?returnTo=/profile")
            #expect(response.status == .found)
            let location = try #require(response.headers.first(name: "Location"))
            #expect(location.contains("/oauth2/v2.0/authorize?"))
            #expect(location.contains("code_challenge_method=S256"))
            #expect(location.contains("client_id=\(IDs.webApp)"))
            let cookie = try #require(response.headers["Set-Cookie"].first { $0.hasPrefix("msal_session=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(!cookie.contains("Secure"), "served over plain HTTP on loopback")
            // The PKCE verifier and nonce stay on the server: the cookie is an id, nothing more.
            #expect(!cookie.contains("code_verifier") && cookie.count < 200)
        }
    }

    @Test("a redirect with a forged state is refused and ends the pending sign-in; one without a session too")
    func forgedRedirect() async throws {
        try await Self.withSite { site, http in
            let start = try await Self.get(http, site.absoluteString + "/auth/signin")
            let cookie = try #require(start.headers["Set-Cookie"].first { $0.hasPrefix("msal_session=") })
                .split(separator: ";")[0]
            let forged = try await Self.get(
                http, site.absoluteString + "/auth/redirect?code=stolen&state=forged", cookie: String(cookie))
            #expect(forged.status == .unauthorized)
            let again = try await Self.get(
                http, site.absoluteString + "/auth/redirect?code=stolen&state=forged", cookie: String(cookie))
            #expect(again.status == .badRequest, "the pending sign-in is gone")
            #expect(
                try await Self.get(http, site.absoluteString + "/auth/redirect?code=x&state=y").status == .badRequest)
            // A page that needs a token, without a session: back to sign-in, returning to it.
            let profile = try await Self.get(http, site.absoluteString + "/profile")
            #expect(profile.status == .found)
            #expect(profile.headers.first(name: "Location") == "/auth/signin?returnTo=/profile")
        }
    }

    @Test(
        "only local paths are returned to after sign-in",
        arguments: [
            ("/profile", "/profile"), ("https://evil.example/", nil), ("//evil.example/x", nil),
            ("/\\evil.example", nil),
            ("profile", nil), (nil, nil),
        ] as [(String?, String?)])
    func returnPaths(_ path: String?, _ expected: String?) {
        #expect(WebAppAuthentication<WebAppTestContext>.localPath(path) == expected)
    }
}

/// A context for naming `WebAppAuthentication`'s static members.
struct WebAppTestContext: WebAppRequestContext {
    var coreContext: CoreRequestContextStorage
    let sessions = SessionContext<WebAppSession>()

    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
}
