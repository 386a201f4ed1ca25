import Locking
import PostgresNIO

/// The store's frequent statements (the load and the two saves), prepared once per connection, so PostgreSQL parses
/// and plans them once per session rather than on every call, and each call sends only the statement's name and
/// values.
///
/// postgres-nio's `PostgresPreparedStatement` takes its SQL from a static property, and the table's name is the
/// app's to choose, so these are prepared with `prepare(query:)`, which takes the SQL at run time.
final class PreparedStatements: Sendable {
    /// One connection's statements.
    struct Prepared: Sendable {
        let select: PreparedQuery
        let insert: PreparedQuery
        let update: PreparedQuery
    }

    private let table: TokenCacheTable
    private let byConnection = Locked([PostgresConnection.ID: Prepared]())

    init(table: TokenCacheTable) {
        self.table = table
    }

    /// The statements on `connection`, prepared now (the three in one round trip) unless they were already.
    func on(_ connection: PostgresConnection) async throws -> Prepared {
        let id = connection.id
        if let prepared = byConnection.withLock({ $0[id] }) { return prepared }
        let select = connection.prepare(query: table.selectSQL)
        let insert = connection.prepare(query: table.insertSQL)
        let update = connection.prepare(query: table.updateSQL)
        let prepared = Prepared(
            select: try await select.get(), insert: try await insert.get(), update: try await update.get())
        let isFirst = byConnection.withLock { byConnection in
            guard byConnection[id] == nil else { return false }
            byConnection[id] = prepared
            return true
        }
        if isFirst {
            connection.closeFuture.whenComplete { _ in self.byConnection.withLock { $0[id] = nil } }
        }
        return prepared
    }

    /// The statements on `connection` if they are prepared.
    func prepared(on connection: PostgresConnection) -> Prepared? {
        byConnection.withLock { $0[connection.id] }
    }

    /// Forgets `connection`'s statements after one failed, so the next use prepares them again (a table dropped
    /// and made again invalidates them).
    func forget(_ connection: PostgresConnection) {
        byConnection.withLock { $0[connection.id] = nil }
    }
}

extension PostgresRow {
    /// The column at `index`, read as binary. Rows of statements prepared with `prepare(query:)` arrive in binary, as
    /// the driver asks, but postgres-nio 1.33.2 labels their columns text (it keeps the server's description from
    /// before it asked for binary), so its own `decode` would read them wrongly.
    func binaryColumn<Value: PostgresDecodable>(_ index: Int, as type: Value.Type) throws -> Value {
        let cell = makeRandomAccess()[index]
        guard var bytes = cell.bytes else { throw PostgresDecodingError.Code.missingData }
        return try Value(from: &bytes, type: cell.dataType, format: .binary, context: .default)
    }
}
