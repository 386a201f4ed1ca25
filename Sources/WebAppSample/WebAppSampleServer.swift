import Foundation
import Logging
import MSAL
import SampleServers
import ServiceLifecycle

/// The sample web app, on Hummingbird or Vapor: users sign in through the identity platform, see their Graph profile and API 1's to-dos.
public enum WebAppSampleServer {
    /// What `webapp-sample` prints once it listens at `url`: what to open, its routes, the identity provider it
    /// signs users in with, the to-do API it calls, and `demoUser` (a user of the emulator's directory) to sign in
    /// as.
    package static func banner(
        _ configuration: WebAppSampleConfiguration, url: URL, demoUser: (username: String, password: String)?,
        details: [String] = []
    ) -> SampleBanner {
        SampleBanner(
            name: "webapp-sample", url: url, routes: WebAppPages.banner,
            details: [
                configuration.framework.bannerLine,
                "Identity provider: \(configuration.client.authority.url.absoluteString) "
                    + "(client id \(configuration.client.clientID))",
                "To-do API: \(configuration.todoListURL.absoluteString) (scope \(configuration.todoScope))",
                "Microsoft Graph: \(configuration.graphBaseURL.absoluteString)",
            ] + details,
            demoUser: demoUser, next: "Open \(url.absoluteString)/ in a browser and sign in.")
    }

    /// Serves until `body` returns (or throws), with the base URL it listens on.
    ///
    /// - Throws: what `body` throws, or why the server could not start.
    public static func withRunning<Result: Sendable>(
        _ configuration: WebAppSampleConfiguration, logger: Logger = Logger(label: "webapp-sample"),
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        try await SampleServer.withRunning(
            "webapp-sample", host: configuration.host, port: configuration.port, logger: logger,
            services: { try services(configuration, logger: logger, bound: $0) }, body)
    }

    /// Serves until SIGINT or SIGTERM, calling `onReady` with the base URL once listening.
    ///
    /// - Throws: why the server could not start.
    public static func run(
        _ configuration: WebAppSampleConfiguration, logger: Logger, onReady: @escaping @Sendable (URL) -> Void
    ) async throws {
        try await SampleServer.run(
            host: configuration.host, port: configuration.port, logger: logger,
            services: { try services(configuration, logger: logger, bound: $0) }, onReady: onReady)
    }

    /// The services that serve `configuration` on its framework: Hummingbird's session storage and application, or
    /// the Vapor application.
    private static func services(
        _ configuration: WebAppSampleConfiguration, logger: Logger, bound: @escaping @Sendable (Int) -> Void
    ) throws -> [any Service] {
        switch configuration.framework {
        case .hummingbird:
            return try HummingbirdWebApp.services(configuration, logger: logger, bound: bound)
        case .vapor:
            return [
                VaporService(host: configuration.host, port: configuration.port, logger: logger, bound: bound) { app in
                    try VaporWebApp.configure(app, configuration)
                }
            ]
        }
    }
}
