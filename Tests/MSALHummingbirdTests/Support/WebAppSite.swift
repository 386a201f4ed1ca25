import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import IdentityEmulatorTesting
import Logging
import MSAL
import NIOCore
import SampleServers
import TestServers
import Testing
import TodoAPI
import WebAppSample
import WebSignInTesting

/// webapp-sample against the emulator over plain HTTP, and the steps of a sign-in at it. Cookies are sent by hand,
/// so that each test says which session a request carries.
struct WebAppSite: WebSignInSite {
    typealias Started = StartedSignIn
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

    /// The emulator and the sample on `framework`, on ports of their own (todo-api, when it is started, on the same
    /// framework), and a client that follows no redirect. The sample logs to `logger`.
    static func with(
        framework: SampleFramework = .hummingbird, responseMode: ResponseMode = .query, todoList: TodoList = .emulator,
        logger: Logger = Logger(label: "webapp-sample"), _ body: @Sendable (WebAppSite) async throws -> Void
    ) async throws {
        try await withIdentityEmulator { fixture in
            let emulator = fixture.running
            switch todoList {
            case .emulator:
                try await serve(
                    try configuration(emulator, framework: framework), responseMode: responseMode, logger: logger,
                    body)
            case .todoAPI:
                let todoAPI = try TodoAPIEndToEndTests.configuration(emulator, framework: framework)
                try await TodoAPIServer.withRunning(todoAPI) { api in
                    let web = try configuration(
                        emulator, todoList: api.appendingPathComponent("api1/todolist"), framework: framework)
                    try await serve(web, responseMode: responseMode, logger: logger, body)
                }
            case .down:
                let closed = try #require(ClosedPort(try LoopbackPort.free()))
                let list = try #require(URL(string: "http://127.0.0.1:\(closed.port)/api1/todolist"))
                try await serve(
                    try configuration(emulator, todoList: list, framework: framework), responseMode: responseMode,
                    logger: logger, body)
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

    /// The sample on `framework` as the External ID web app of `emulator`: Graph at the emulator, and the to-do list
    /// of API 1 at `todoList` (the emulator's own when `nil`).
    static func configuration(
        _ emulator: RunningEmulator, todoList: URL? = nil, framework: SampleFramework = .hummingbird
    ) throws -> WebAppSampleConfiguration {
        var configuration = WebAppSampleConfiguration(
            client: try ConfidentialClientApplicationConfiguration(
                clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                authority: Authority(emulator.authority(IDs.externalTenant).absoluteString)),
            graphBaseURL: emulator.baseURL.appendingPathComponent("v1.0/"),
            todoListURL: todoList ?? emulator.baseURL.appendingPathComponent("api1/todolist"),
            todoScope: "api://\(IDs.api1)/ToDoList.ReadWrite")
        configuration.framework = framework
        return configuration
    }
}

extension WebDriver {
    /// Signs Jane in on the emulator's sign-in page, the page open now.
    func signInJane() async throws {
        try await signInOnEmulatorPage(username: WebAppSite.jane.username, password: WebAppSite.jane.password)
    }
}
