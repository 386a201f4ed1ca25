import Hummingbird
import Logging
import MSAL
import MSALHummingbird
import ServiceLifecycle

/// ``WebFramework/hummingbird``'s server: `BearerTokenMiddleware` and `RequiredPermissionMiddleware` in front of
/// `/protected`.
enum HummingbirdWebAPI {
    struct Context: AccessTokenRequestContext {
        var coreContext: CoreRequestContextStorage
        var accessToken: ValidatedAccessToken?

        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    }

    static func serve<T: Sendable>(validator: AccessTokenValidator, _ body: (Int) async throws -> T) async throws -> T {
        let router = Router(context: Context.self)
        router.get("open") { _, _ in "ok" }
        router.group("protected")
            .add(middleware: BearerTokenMiddleware<Context>(validator: validator))
            .add(middleware: RequiredPermissionMiddleware<Context>(appRoles: ["ToDoList.Read.All"]))
            .get { _, _ in "ok" }
        let (ports, portSignal) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portSignal.yield(channel.localAddress?.port ?? 0)
                portSignal.finish()
            })
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "bench")))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next() else {
                    throw BenchError("the Hummingbird web API did not start")
                }
                let result = try await body(port)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
        }
    }
}
