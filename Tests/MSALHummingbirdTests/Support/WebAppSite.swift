import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import Logging
import MSAL
import NIOCore
import TestServers
import Testing
import TodoAPI
import WebAppSample

/// webapp-sample against the emulator over plain HTTP, and the steps of a sign-in at it. Cookies are sent by hand,
/// so that each test says which session a request carries.
struct WebAppSite {
    typealias IDs = Directory.DemoIDs

    let url: URL
    let http: HTTPClient
    /// How the sample was set up.
    let configuration: WebAppSampleConfiguration

    /// Where the sample finds API 1's to-do list.
    enum TodoList {
        /// The emulator's own, read-only one.
        case emulator
        /// todo-api, started beside the emulator.
        case todoAPI
        /// A port that refuses connections: the API is down.
        case down
    }

    /// The emulator and the sample on ports of their own, and a client that follows no redirect. The sample logs to
    /// `logger`.
    static func with(
        responseMode: ResponseMode = .query, todoList: TodoList = .emulator,
        logger: Logger = Logger(label: "webapp-sample"), _ body: @Sendable (WebAppSite) async throws -> Void
    ) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            switch todoList {
            case .emulator:
                try await serve(try configuration(emulator), responseMode: responseMode, logger: logger, body)
            case .todoAPI:
                try await TodoAPIServer.withRunning(try TodoAPIEndToEndTests.configuration(emulator)) { api in
                    let web = try configuration(emulator, todoList: api.appendingPathComponent("api1/todolist"))
                    try await serve(web, responseMode: responseMode, logger: logger, body)
                }
            case .down:
                let closed = try #require(ClosedPort(try LoopbackPort.free()))
                let list = try #require(URL(string: "http://127.0.0.1:\(closed.port)/api1/todolist"))
                try await serve(
                    try configuration(emulator, todoList: list), responseMode: responseMode, logger: logger, body)
                withExtendedLifetime(closed) {}
            }
        }
    }

    private static func serve(
        _ configuration: WebAppSampleConfiguration, responseMode: ResponseMode, logger: Logger,
        _ body: @Sendable (WebAppSite) async throws -> Void
    ) async throws {
        var configuration = configuration
        configuration.responseMode = responseMode
        try await WebAppSampleServer.withRunning(configuration, logger: logger) { [configuration] site in
            let http = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: .init(redirectConfiguration: .disallow))
            do {
                try await body(WebAppSite(url: site, http: http, configuration: configuration))
                try await http.shutdown()
            } catch {
                try? await http.shutdown()
                throw error
            }
        }
    }

    /// The sample as the External ID web app of `emulator`: Graph at the emulator, and the to-do list of API 1 at
    /// `todoList` (the emulator's own when `nil`).
    static func configuration(_ emulator: RunningEmulator, todoList: URL? = nil) throws -> WebAppSampleConfiguration {
        WebAppSampleConfiguration(
            client: try ConfidentialClientApplicationConfiguration(
                clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                authority: Authority(emulator.authority(IDs.externalTenant).absoluteString)),
            graphBaseURL: emulator.baseURL.appendingPathComponent("v1.0/"),
            todoListURL: todoList ?? emulator.baseURL.appendingPathComponent("api1/todolist"),
            todoScope: "api://\(IDs.api1)/ToDoList.ReadWrite")
    }

    /// Jane's username and password in the emulator's demo directory.
    static let jane = (username: "jane@example.com", password: "Jane-Demo-Pass4")

    /// `GET` (or `POST` with `form`) a path of the site, or a whole URL, with these cookies (`name=value`).
    func request(_ target: String, cookies: [String] = [], form: String? = nil) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: target.hasPrefix("/") ? url.absoluteString + target : target)
        if !cookies.isEmpty { request.headers.add(name: "Cookie", value: cookies.joined(separator: "; ")) }
        if let form {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        return try await http.execute(request, timeout: .seconds(30))
    }

    /// The value a response sets for cookie `name`, `nil` when it sets none or removes it.
    static func cookie(_ name: String, in response: HTTPClientResponse) -> String? {
        for header in response.headers["Set-Cookie"] where header.hasPrefix("\(name)=") {
            let value = header.split(separator: ";", omittingEmptySubsequences: false)[0].dropFirst(name.count + 1)
            return value.isEmpty || header.contains("Max-Age=0") ? nil : String(value)
        }
        return nil
    }

    /// A sign-in started at the site: the authorize URL it sends the browser to, and its sealed sign-in cookie.
    struct Started {
        let authorize: URL
        let signInCookie: String

        /// The `state` the authorize URL carries.
        var state: String? {
            URLComponents(url: authorize, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?
                .value
        }
    }

    /// `GET /auth/signin`, with `returnTo` as it appears in the query (already percent-encoded).
    func start(returnTo: String? = nil, cookies: [String] = []) async throws -> Started {
        let response = try await request("/auth/signin" + (returnTo.map { "?returnTo=\($0)" } ?? ""), cookies: cookies)
        #expect(response.status == .found)
        return Started(
            authorize: try #require(response.headers.first(name: "Location").flatMap(URL.init(string:))),
            signInCookie: "msal_signin=" + (try #require(Self.cookie("msal_signin", in: response))))
    }

    /// Jane's first sign-in: she types her password on the emulator's page; the emulator then keeps her SSO
    /// session in `user`'s cookies. Returns her session cookie (`msal_session=…`).
    func signInJane(_ started: Started, as user: AutomatedUser) async throws -> String {
        user.then(.signIn(username: Self.jane.username, password: Self.jane.password))
        user.setCookie("msal_signin", String(started.signInCookie.dropFirst("msal_signin=".count)))
        try await user.open(started.authorize)
        return "msal_session=" + (try #require(user.cookie("msal_session")))
    }

    /// A sign-in finished through the emulator's SSO session (no page: it redirects straight back to the site):
    /// the site's answer to its redirect, sent with the sign-in cookie and `cookies`.
    func finishWithSSO(_ started: Started, user: AutomatedUser, cookies: [String] = []) async throws
        -> HTTPClientResponse
    {
        let emulatorCookies = ["ESTSAUTH", "buid"].compactMap { name in user.cookie(name).map { "\(name)=\($0)" } }
        let authorize = try await request(started.authorize.absoluteString, cookies: emulatorCookies)
        #expect(authorize.status == .found, "the emulator signs Jane in again without a page")
        let back = try #require(authorize.headers.first(name: "Location"))
        #expect(back.hasPrefix(url.absoluteString + "/auth/redirect?"))
        return try await request(back, cookies: [started.signInCookie] + cookies)
    }

    /// Whether `/profile` shows the page for this session (200), rather than sending it to a new sign-in (302).
    func signedIn(_ session: String) async throws -> Bool {
        let profile = try await request("/profile", cookies: [session])
        #expect(profile.status == .ok || profile.headers.first(name: "Location")?.hasPrefix("/auth/signin?") == true)
        return profile.status == .ok
    }
}

extension WebDriver {
    /// Signs Jane in on the emulator's sign-in page, the page open now.
    func signInJane() async throws {
        try await signInOnEmulatorPage(username: WebAppSite.jane.username, password: WebAppSite.jane.password)
    }
}
