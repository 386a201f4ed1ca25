import Logging
import ServiceLifecycle
import Vapor

/// A Vapor application as a service of ``SampleServer``: made, configured and started on `host`:`port` when the
/// group runs, it reports the port it bound and serves until the group shuts down gracefully, then shuts down
/// itself.
package struct VaporService: Service {
    /// Adds the sample's middleware and routes to the application.
    package typealias Configure = @Sendable (Application) async throws -> Void

    let host: String
    let port: Int
    let logger: Logger
    let bound: @Sendable (Int) -> Void
    let configure: Configure

    /// A service that serves what `configure` sets up, and calls `bound` with the port once listening.
    package init(
        host: String, port: Int, logger: Logger, bound: @escaping @Sendable (Int) -> Void,
        configure: @escaping Configure
    ) {
        self.host = host
        self.port = port
        self.logger = logger
        self.bound = bound
        self.configure = configure
    }

    /// Serves until the group's graceful shutdown (or cancellation).
    package func run() async throws {
        // Not the process's arguments: they are the sample's own, not Vapor's commands.
        let app = try await Application.make(Environment(name: "production", arguments: ["vapor"]))
        app.logger = logger
        do {
            try await configure(app)
            try await app.server.start(address: .hostname(host, port: port))
            bound(app.http.server.shared.localAddress?.port ?? port)
            try? await gracefulShutdown()
            await app.server.shutdown()
            try await app.asyncShutdown()
        } catch {
            await app.server.shutdown()
            try? await app.asyncShutdown()
            throw error
        }
    }
}
