import Foundation
import Logging
import ServiceLifecycle

/// Runs a sample service (`todo-api`, `webapp-sample`): its services in one group, its Hummingbird application among
/// them reporting the loopback port it bound, either for as long as a caller's work lasts (tests, the demo) or until
/// SIGINT or SIGTERM (the executables).
package enum SampleServer {
    /// Makes the services, given what the application calls with the port it bound.
    package typealias Services = (_ bound: @escaping @Sendable (Int) -> Void) throws -> [any Service]

    /// The sample stopped before it was listening.
    package struct StoppedEarly: Error, CustomStringConvertible {
        package let description: String
    }

    /// Serves until `body` returns or throws, giving it the base URL, then shuts the services down gracefully.
    ///
    /// - Throws: what `body` throws, ``StoppedEarly``, or why a service failed.
    package static func withRunning<Result: Sendable>(
        _ name: String, host: String, logger: Logger, services: Services,
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        let (ports, portSignal) = AsyncStream<Int>.makeStream()
        let group = ServiceGroup(
            configuration: .init(
                services: try services { port in
                    portSignal.yield(port)
                    portSignal.finish()
                }, logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { portSignal.finish() }
                try await group.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                try await tasks.next()
                throw StoppedEarly(description: "\(name) stopped before it was listening")
            }
            do {
                let result = try await body(url(host, port))
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
    /// - Throws: why a service failed.
    package static func run(
        host: String, logger: Logger, services: Services, onReady: @escaping @Sendable (URL) -> Void
    ) async throws {
        let group = ServiceGroup(
            configuration: .init(
                services: try services { onReady(url(host, $0)) }, gracefulShutdownSignals: [.sigint, .sigterm],
                logger: logger))
        try await group.run()
    }

    private static func url(_ host: String, _ port: Int) -> URL { URL(string: "http://\(host):\(port)")! }
}
