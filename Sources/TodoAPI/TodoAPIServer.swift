import Foundation
import Hummingbird
import Logging
import MSAL
import MSALHummingbird
import SampleServers
import ServiceLifecycle
import Vapor

/// The sample to-do service: API 1 and API 2 in one server, on Hummingbird or Vapor.
public enum TodoAPIServer {
    /// Each API's service for `configuration`: its token validator and, for API 1, Graph on the caller's behalf.
    ///
    /// - Throws: ``MSALError`` when API 1's confidential client cannot be made.
    static func services(_ configuration: TodoAPIConfiguration) throws -> [TodoService] {
        try configuration.apis.map { api in
            var validation = try AccessTokenValidator.Configuration(
                authority: configuration.authority, audiences: [api.clientID, "api://\(api.clientID)"],
                allowedTenants: configuration.allowedTenants)
            validation.transport = configuration.transport
            validation.clock = configuration.clock
            var graph: DownstreamAPI?
            if api.name == "api1", let credential = configuration.api1Credential {
                graph = DownstreamAPI(
                    app: try onBehalfOfClient(api, credential: credential, configuration),
                    baseURL: configuration.graphBaseURL, scopes: ["User.Read"], transport: configuration.transport)
            }
            return TodoService(api: api, validator: AccessTokenValidator(configuration: validation), graph: graph)
        }
    }

    /// The Hummingbird routes for `configuration`.
    ///
    /// - Throws: ``MSALError`` when API 1's confidential client cannot be made.
    static func router(_ configuration: TodoAPIConfiguration) throws -> Hummingbird.Router<TodoContext> {
        let router = Hummingbird.Router(context: TodoContext.self)
        router.add(middleware: ExplainedErrorMiddleware<TodoContext>(render: TodoErrorBody.render))
        for service in try services(configuration) { service.add(to: router) }
        return router
    }

    /// Sets up `app` (a Vapor application) to serve `configuration`'s APIs: only the sample's own middleware (Vapor's
    /// default ErrorMiddleware would answer errors before it), then the routes.
    ///
    /// - Throws: ``MSALError`` when API 1's confidential client cannot be made.
    package static func configure(_ app: Vapor.Application, _ configuration: TodoAPIConfiguration) throws {
        app.middleware = Middlewares()
        app.middleware.use(ExplainedVaporErrors(render: TodoErrorBody.render))
        for service in try services(configuration) { service.add(to: app) }
    }

    private static func onBehalfOfClient(
        _ api: TodoAPIConfiguration.API, credential: ClientCredential, _ configuration: TodoAPIConfiguration
    ) throws -> ConfidentialClientApplication {
        let base = configuration.authority.url.deletingLastPathComponent().absoluteString
        var client = ConfidentialClientApplicationConfiguration(
            clientID: api.clientID, credential: credential,
            authority: try Authority(base + configuration.api1Tenant))
        client.transport = configuration.transport
        client.clock = configuration.clock
        return try ConfidentialClientApplication(configuration: client)
    }

    /// What `todo-api` prints once it listens at `url`: its routes, whose tokens it accepts, where API 1 gets Graph
    /// tokens, and `demoUser` (a user of the emulator's directory) to sign in as.
    package static func banner(
        _ configuration: TodoAPIConfiguration, url: URL, demoUser: (username: String, password: String)?
    ) -> SampleBanner {
        let withGraph = configuration.api1Credential != nil
        let routes = configuration.apis.flatMap {
            TodoService.banner(api: $0.name, graph: withGraph && $0.name == "api1")
        }
        let tenants = configuration.allowedTenants.map { $0.sorted().joined(separator: ", ") } ?? "any"
        var details = [
            configuration.framework.bannerLine,
            "Identity provider: \(configuration.authority.url.absoluteString) (tenants accepted: \(tenants))",
            "Access tokens must name an API as their audience: "
                + configuration.apis.map { "\($0.name) api://\($0.clientID)" }.joined(separator: ", "),
        ]
        if withGraph {
            details.append(
                "GET /api1/me: on-behalf-of tokens from tenant \(configuration.api1Tenant), Graph at "
                    + configuration.graphBaseURL.absoluteString)
        } else {
            details.append("GET /api1/me is off: API 1 has no client secret (set TODO_API1_SECRET).")
        }
        if let api1 = configuration.apis.first {
            let call = "\(url.absoluteString)/\(api1.name)/todolist --scopes api://\(api1.clientID)/ToDoList.Read"
            details.append(
                demoUser.map { "Try it: msal native signin --email \($0.username), then msal native call \(call)" }
                    ?? "Try it: msal call \(call)")
        }
        return SampleBanner(name: "todo-api", url: url, routes: routes, details: details, demoUser: demoUser)
    }

    /// Serves until `body` returns (or throws), with the base URL it listens on.
    ///
    /// - Throws: what `body` throws, or why the server could not start.
    public static func withRunning<Result: Sendable>(
        _ configuration: TodoAPIConfiguration, logger: Logger = Logger(label: "todo-api"),
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        try await SampleServer.withRunning(
            "todo-api", host: configuration.host, port: configuration.port, logger: logger,
            services: { [try server(configuration, logger: logger, bound: $0)] }, body)
    }

    /// Serves until SIGINT or SIGTERM, calling `onReady` with the base URL once listening.
    ///
    /// - Throws: why the server could not start.
    public static func run(
        _ configuration: TodoAPIConfiguration, logger: Logger, onReady: @escaping @Sendable (URL) -> Void
    ) async throws {
        try await SampleServer.run(
            host: configuration.host, port: configuration.port, logger: logger,
            services: { [try server(configuration, logger: logger, bound: $0)] }, onReady: onReady)
    }

    /// The server for `configuration.framework`, as a service that reports the port it bound.
    private static func server(
        _ configuration: TodoAPIConfiguration, logger: Logger, bound: @escaping @Sendable (Int) -> Void
    ) throws -> any Service {
        switch configuration.framework {
        case .hummingbird:
            Hummingbird.Application(
                router: try router(configuration),
                configuration: ApplicationConfiguration(
                    address: .hostname(configuration.host, port: configuration.port)),
                onServerRunning: { channel in bound(channel.localAddress?.port ?? configuration.port) },
                logger: logger)
        case .vapor:
            VaporService(host: configuration.host, port: configuration.port, logger: logger, bound: bound) { app in
                try configure(app, configuration)
            }
        }
    }
}
