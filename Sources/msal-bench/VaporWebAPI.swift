import MSAL
import MSALVapor
import Vapor

/// ``WebFramework/vapor``'s server: `requiringAccessToken(_:appRoles:)` (MSALVapor's authenticator, guard and role
/// requirement, one middleware) in front of `/protected`, with Vapor's default middleware on both routes.
enum VaporWebAPI {
    static func serve<T: Sendable>(validator: AccessTokenValidator, _ body: (Int) async throws -> T) async throws -> T {
        // Named arguments: Vapor's own parsing of the process's arguments would take msal-bench's for commands.
        let app = try await Application.make(Environment(name: "production", arguments: ["msal-bench"]))
        // Quiet enough that the route logger (info) writes nothing per request.
        app.logger.logLevel = .warning
        app.get("open") { _ in "ok" }
        app.requiringAccessToken(validator, appRoles: ["ToDoList.Read.All"]).get("protected") { _ in "ok" }
        do {
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            guard let port = app.http.server.shared.localAddress?.port else {
                throw BenchError("the Vapor web API did not start")
            }
            let result = try await body(port)
            await app.server.shutdown()
            try await app.asyncShutdown()
            return result
        } catch {
            await app.server.shutdown()
            try? await app.asyncShutdown()
            throw error
        }
    }
}
