import MSAL

/// The web frameworks `msal-bench webapi` measures the protected-API middleware on: each serves `GET /open` as is
/// and `GET /protected` behind its integration's bearer-token check and `ToDoList.Read.All` app-role requirement,
/// both answering `ok`, on 127.0.0.1 at a port of the system's choosing.
enum WebFramework: String, CaseIterable, Sendable {
    case hummingbird
    case vapor

    /// The framework's name as the rows print it.
    var name: String {
        switch self {
        case .hummingbird: "Hummingbird"
        case .vapor: "Vapor"
        }
    }

    /// What the integration calls its bearer-token check.
    var bearerCheck: String {
        switch self {
        case .hummingbird: "MSALHummingbird's bearer middleware"
        case .vapor: "MSALVapor's bearer authenticator"
        }
    }

    /// Serves the two routes with `validator` behind `/protected` while `body` runs with the port, then shuts the
    /// server down.
    func serve<T: Sendable>(validator: AccessTokenValidator, _ body: (Int) async throws -> T) async throws -> T {
        switch self {
        case .hummingbird: try await HummingbirdWebAPI.serve(validator: validator, body)
        case .vapor: try await VaporWebAPI.serve(validator: validator, body)
        }
    }
}
