import ArgumentParser
import Foundation
import IdentityEmulator
import Logging
import MSAL
import SampleServers
import TodoAPI

/// `todo-api`: the tutorials' API 1 and API 2 as one service on Hummingbird or Vapor, checking the bearer tokens the
/// identity emulator (or Entra) issues for them.
@main
struct TodoAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo-api",
        abstract: "Serve the tutorials' to-do APIs (API 1 under /api1, API 2 under /api2), protected by bearer tokens.",
        discussion: """
            Routes: GET/POST /apiN/todolist, DELETE /apiN/todolist/ID, and GET /api1/me (API 1 calls Microsoft \
            Graph on the caller's behalf). API 1's client secret comes from TODO_API1_SECRET; against an emulator on \
            loopback the demo directory's secret is used when it is unset. Example, with identity-emulator running:
              swift run todo-api                      # or: swift run todo-api --framework vapor
              msal call http://127.0.0.1:8500/api1/todolist --scopes api://\(Directory.DemoIDs.api1)/ToDoList.Read
            """)

    @Option(help: "The identity provider's base URL.") var identityProvider = "http://127.0.0.1:8400"
    @Option(help: "The authority whose tokens are accepted (default: <identity-provider>/organizations).")
    var authority: String?
    @Option(help: "The tenants accepted, comma-separated (default: the demo's External ID and Contoso tenants).")
    var allowedTenants = "\(Directory.DemoIDs.externalTenant),\(Directory.DemoIDs.contosoTenant)"
    @Option(help: "API 1's client id.") var api1 = Directory.DemoIDs.api1
    @Option(help: "API 2's client id.") var api2 = Directory.DemoIDs.api2
    @Option(help: "The tenant API 1's on-behalf-of requests go to.") var api1Tenant = Directory.DemoIDs.externalTenant
    @Option(help: "Microsoft Graph's base URL (default: the identity provider's on loopback, else Graph's).")
    var graph: String?
    @Option(help: "The port to listen on, on 127.0.0.1 (0 picks a free one).") var port = 8500
    @Option(help: "The web framework: hummingbird or vapor (the same routes and answers).") var framework =
        "hummingbird"

    func run() async throws {
        let base = identityProvider.hasSuffix("/") ? String(identityProvider.dropLast()) : identityProvider
        let authority = try Authority(self.authority ?? "\(base)/organizations")
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(authority.url.host ?? "")
        let secret =
            ProcessInfo.processInfo.environment["TODO_API1_SECRET"] ?? (loopback ? Directory.DemoIDs.api1Secret : nil)
        let graphBase = graph ?? (loopback ? "\(base)/v1.0/" : "https://graph.microsoft.com/v1.0/")
        guard let graphURL = URL(string: graphBase.hasSuffix("/") ? graphBase : graphBase + "/") else {
            throw ValidationError("--graph is not a URL.")
        }
        var configuration = try TodoAPIConfiguration(
            authority: authority,
            allowedTenants: Set(allowedTenants.split(separator: ",").map { String($0) }),
            apis: [.init(name: "api1", clientID: api1), .init(name: "api2", clientID: api2)],
            api1Credential: secret.map { .secret($0) }, api1Tenant: api1Tenant, graphBaseURL: graphURL)
        configuration.port = port
        guard let framework = SampleFramework(rawValue: framework) else {
            throw ValidationError("--framework must be hummingbird or vapor.")
        }
        configuration.framework = framework
        var logger = Logger(label: "todo-api")
        logger.logLevel = .info
        if secret == nil { logger.notice("TODO_API1_SECRET is not set: /api1/me (on-behalf-of Graph) is off") }
        let demoUser = loopback ? Directory.demo.passwordUser(in: api1Tenant) : nil
        try await TodoAPIServer.run(configuration, logger: logger) { [configuration] url in
            TodoAPIServer.banner(
                configuration, url: url, demoUser: demoUser.map { ($0.userPrincipalName, $0.password ?? "") }
            ).print()
        }
    }
}
