import ArgumentParser
import Foundation
import IdentityEmulator
import Logging
import MSAL
import MSALPostgres
import SampleServers
import WebAppSample

/// `webapp-sample`: a web app (on Hummingbird or Vapor) where users sign in with the identity platform and see their Microsoft
/// Graph profile and their to-dos from API 1.
@main
struct WebAppSampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webapp-sample",
        abstract: "Serve a web app that signs users in and shows their Graph profile and API 1's to-dos.",
        discussion: """
            The app's client secret comes from WEBAPP_CLIENT_SECRET; against an emulator on loopback the demo \
            directory's is used when it is unset. With WEBAPP_TOKEN_CACHE=postgres://… the users' tokens are kept \
            in PostgreSQL, shared by every instance of the app (in memory otherwise). With identity-emulator (and todo-api) running:
              swift run webapp-sample      # or --framework vapor; then open http://127.0.0.1:8600 and sign in as the banner's demo user
            """)

    @Option(help: "The identity provider's base URL.") var identityProvider = "http://127.0.0.1:8400"
    @Option(help: "The tenant users sign in to (default: the demo's External ID tenant).")
    var tenant = Directory.DemoIDs.externalTenant
    @Option(help: "The web app's client id.") var clientID = Directory.DemoIDs.webApp
    @Option(help: "Microsoft Graph's base URL (default: the identity provider's on loopback).") var graph: String?
    @Option(help: "API 1's to-do list (default: todo-api on 127.0.0.1:8500).")
    var todoList = "http://127.0.0.1:8500/api1/todolist"
    @Option(help: "API 1's client id, for its ToDoList.ReadWrite scope.") var api1 = Directory.DemoIDs.api1
    @Option(help: "The port to listen on, on 127.0.0.1 (0 picks a free one).") var port = 8600
    @Option(help: "How the identity provider returns the code: query or form_post.") var responseMode = "query"
    @Option(help: "The web framework: hummingbird or vapor (the same pages and answers).") var framework = "hummingbird"

    func run() async throws {
        let base = identityProvider.hasSuffix("/") ? String(identityProvider.dropLast()) : identityProvider
        let authority = try Authority("\(base)/\(tenant)")
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(authority.url.host ?? "")
        guard
            let secret = ProcessInfo.processInfo.environment["WEBAPP_CLIENT_SECRET"]
                ?? (loopback ? Directory.DemoIDs.webAppSecret : nil)
        else { throw ValidationError("Set WEBAPP_CLIENT_SECRET to the app's client secret.") }
        let graphBase = graph ?? (loopback ? "\(base)/v1.0/" : "https://graph.microsoft.com/v1.0/")
        guard let graphURL = URL(string: graphBase.hasSuffix("/") ? graphBase : graphBase + "/"),
            let todoURL = URL(string: todoList)
        else { throw ValidationError("--graph and --todo-list must be URLs.") }
        var client = ConfidentialClientApplicationConfiguration(
            clientID: clientID, credential: .secret(secret), authority: authority)
        var logger = Logger(label: "webapp-sample")
        logger.logLevel = .info
        // The URL holds the database's password: from the environment, never the command line.
        let store = try ProcessInfo.processInfo.environment["WEBAPP_TOKEN_CACHE"].map {
            try PostgresTokenCacheStore(url: $0, logger: logger)
        }
        if let store { client.cache = PartitionedTokenCache(store: store, logger: logger) }
        var configuration = WebAppSampleConfiguration(
            client: client, graphBaseURL: graphURL, todoListURL: todoURL, todoScope: "api://\(api1)/ToDoList.ReadWrite")
        configuration.port = port
        guard let mode = ResponseMode(rawValue: responseMode) else {
            throw ValidationError("--response-mode must be query or form_post.")
        }
        configuration.responseMode = mode
        guard let framework = SampleFramework(rawValue: framework) else {
            throw ValidationError("--framework must be hummingbird or vapor.")
        }
        configuration.framework = framework
        let demoUser = loopback ? Directory.demo.passwordUser(in: tenant) : nil
        do {
            try await WebAppSampleServer.run(configuration, logger: logger) { [configuration] url in
                WebAppSampleServer.banner(
                    configuration, url: url, demoUser: demoUser.map { ($0.userPrincipalName, $0.password ?? "") },
                    details: store.map { ["Token cache: \($0)"] } ?? []
                ).print()
            }
            await store?.shutdown()
        } catch {
            await store?.shutdown()
            throw error
        }
    }
}
