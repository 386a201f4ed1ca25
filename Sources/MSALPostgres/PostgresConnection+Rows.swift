import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `query` and reads all its rows, so the connection is idle again when it returns.
    func drain(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }

    /// The first column of the query's first row, or `nil` when it returns none (all rows are read).
    func value<Value: PostgresDecodable & Sendable>(
        _ query: PostgresQuery, as type: Value.Type, logger: Logger
    ) async throws -> Value? {
        var value: Value?
        for try await row in try await self.query(query, logger: logger).decode(Value.self) where value == nil {
            value = row
        }
        return value
    }
}
