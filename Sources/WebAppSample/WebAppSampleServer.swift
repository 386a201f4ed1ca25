import Foundation
import Hummingbird
import HummingbirdAuth
import Logging
import MSAL
import MSALHummingbird
import ServiceLifecycle

/// The sample web app: users sign in through the identity platform, see their Graph profile and API 1's to-dos.
public enum WebAppSampleServer {
    /// Serves until `body` returns (or throws), with the base URL it listens on.
    ///
    /// - Throws: what `body` throws, or why the server could not start.
    public static func withRunning<Result: Sendable>(
        _ configuration: WebAppSampleConfiguration, logger: Logger = Logger(label: "webapp-sample"),
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        let (ports, portSignal) = AsyncStream<Int>.makeStream()
        let (app, storage) = try application(configuration, logger: logger) { port in
            portSignal.yield(port)
            portSignal.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [storage, app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { portSignal.finish() }
                try await group.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await tasks.next()
                throw HTTPError(.internalServerError, message: "webapp-sample stopped before it was listening")
            }
            do {
                let result = try await body(URL(string: "http://\(configuration.host):\(port)")!)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// Serves until SIGINT or SIGTERM, calling `onReady` with the base URL once listening.
    ///
    /// - Throws: why the server could not start.
    public static func run(
        _ configuration: WebAppSampleConfiguration, logger: Logger, onReady: @escaping @Sendable (URL) -> Void
    ) async throws {
        let (app, storage) = try application(configuration, logger: logger) { port in
            onReady(URL(string: "http://\(configuration.host):\(port)")!)
        }
        let group = ServiceGroup(
            configuration: .init(
                services: [storage, app], gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
        try await group.run()
    }

    private static func application(
        _ configuration: WebAppSampleConfiguration, logger: Logger, onPort: @escaping @Sendable (Int) -> Void
    ) throws -> (some Service, MemoryPersistDriver<ContinuousClock>) {
        let client = try ConfidentialClientApplication(configuration: configuration.client)
        let auth = WebAppAuthentication<WebContext>(app: client, scopes: ["User.Read"])
        let storage = MemoryPersistDriver()
        let router = Router(context: WebContext.self)
        router.add(middleware: SessionMiddleware(storage: storage, configuration: auth.sessionConfiguration))
        WebAppRoutes(auth: auth, configuration: configuration).add(to: router)
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in onPort(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        return (app, storage)
    }
}
