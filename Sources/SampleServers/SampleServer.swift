import Foundation
import ListeningPort
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

    /// The sample cannot listen where it was asked to: a port out of range, or an address in use (``ListeningPort``).
    package struct CannotListen: Error, CustomStringConvertible {
        package let description: String
    }

    /// Serves until `body` returns or throws, giving it the base URL, then shuts the services down gracefully.
    ///
    /// - Throws: what `body` throws, ``CannotListen``, ``StoppedEarly``, or why a service failed.
    package static func withRunning<Result: Sendable>(
        _ name: String, host: String, port: Int, logger: Logger, services: Services,
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        try check(port)
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
            guard let bound = await iterator.next() else {
                _ = try await explainingBindFailure(host: host, port: port) { try await tasks.next() }
                throw StoppedEarly(description: "\(name) stopped before it was listening")
            }
            do {
                let result = try await body(url(host, bound))
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
    /// - Throws: ``CannotListen``, or why a service failed.
    package static func run(
        host: String, port: Int, logger: Logger, services: Services, onReady: @escaping @Sendable (URL) -> Void
    ) async throws {
        try check(port)
        let group = ServiceGroup(
            configuration: .init(
                services: try services { onReady(url(host, $0)) }, gracefulShutdownSignals: [.sigint, .sigterm],
                logger: logger))
        try await explainingBindFailure(host: host, port: port) { try await group.run() }
    }

    /// - Throws: ``CannotListen`` for a port out of range.
    private static func check(_ port: Int) throws {
        if let problem = ListeningPort.problem(port) { throw CannotListen(description: "--port \(problem)") }
    }

    /// Runs `work`, turning a failure to listen on `host`:`port` into ``CannotListen``.
    private static func explainingBindFailure<T>(
        host: String, port: Int, _ work: () async throws -> T
    ) async throws -> T {
        do {
            return try await work()
        } catch {
            guard let explanation = ListeningPort.explanation(of: error, host: host, port: port) else { throw error }
            throw CannotListen(description: explanation)
        }
    }

    private static func url(_ host: String, _ port: Int) -> URL { URL(string: "http://\(host):\(port)")! }
}
