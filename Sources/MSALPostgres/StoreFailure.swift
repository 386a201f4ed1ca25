import MSAL
import PostgresNIO

/// The ``MSAL/MSALError`` `cacheUnavailable` a failed operation throws: the store (its URL without the password), what
/// it was doing and why, from the error's code and the server's SQLSTATE and message. Never the query's values (token
/// bytes) or the server's detail line, which can quote them. The error itself is the ``MSAL/MSALError/underlyingError``.
func cacheUnavailable(
    _ store: String, _ operation: String, _ error: any Error, timeout: Duration
) -> MSALError {
    MSALError.internal(
        .cacheUnavailable,
        "The PostgreSQL token cache \(store) could not \(operation): \(reason(error, timeout: timeout)).",
        underlyingError: error)
}

/// Thrown by operations after ``PostgresTokenCacheStore/shutdown()``.
struct StoreShutDown: Error {}

private func reason(_ error: any Error, timeout: Duration) -> String {
    switch error {
    case is StoreShutDown:
        return "the store was shut down"
    case is DeadlineExceeded:
        return "no answer within \(timeout.formatted)"
    case let error as PSQLError:
        if let serverInfo = error.serverInfo {
            let state = serverInfo[.sqlState].map { "SQLSTATE \($0) " } ?? ""
            return "the server answered \(state)\(serverInfo[.message].map { "'\($0)'" } ?? "")"
        }
        if let underlying = error.underlying, !(underlying is PSQLError) {
            return "\(error.code) (\(underlying))"
        }
        return "\(error.code)"
    case let error as PostgresError:
        // The legacy API's error, which prepared statements (`prepare(query:)`) throw.
        switch error {
        case .server(let answer):
            let state = answer.fields[.sqlState].map { "SQLSTATE \($0) " } ?? ""
            return "the server answered \(state)\(answer.fields[.message].map { "'\($0)'" } ?? "")"
        case .connectionClosed:
            return "the connection closed"
        case .protocol:
            return "a protocol error"
        }
    case let error as PostgresDecodingError:
        return "a column could not be read (\(error.code))"
    case let code as PostgresDecodingError.Code:
        return "a column could not be read (\(code))"
    default:
        // The pool's errors (ConnectionPoolError: a tripped circuit breaker, a closed pool) name only what happened;
        // others may quote values, so only their type is told.
        let type = String(reflecting: type(of: error))
        return type.hasPrefix("_ConnectionPoolModule.") ? "\(error)" : type
    }
}

extension Duration {
    /// `2 s`, `250 ms`.
    var formatted: String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
