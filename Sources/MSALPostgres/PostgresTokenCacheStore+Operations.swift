import Foundation
import MSAL
import PostgresNIO

extension PostgresTokenCacheStore {
    /// The partition's row (with the expiry it was saved with), unless there is none or it has expired by the
    /// database's clock.
    ///
    /// - Throws: ``MSAL/MSALError`` `cacheUnavailable` when PostgreSQL fails or does not answer within
    ///   ``operationTimeout``.
    public nonisolated(nonsending) func load(_ partition: TokenCachePartition) async throws
        -> StoredTokenCachePartition?
    {
        let key = PostgresData(string: partition.key)
        return try await performPrepared("load the \(partition.kind.rawValue) partition") { prepared in
            prepared.select.execute([key]).flatMapThrowing { rows in
                try rows.first.map { row in
                    StoredTokenCachePartition(
                        data: try row.binaryColumn(0, as: Data.self), version: try row.binaryColumn(1, as: Int64.self),
                        expiresOn: try row.binaryColumn(2, as: Date.self))
                }
            }
        }
    }

    /// Saves the partition if its live row's version is `expectedVersion`; with `nil`, if it has no live row (an
    /// expired one counts as none and is replaced). One statement does both the check and the write, so of two
    /// processes saving over the same version exactly one succeeds.
    ///
    /// - Returns: the new version (1 for a new row, the old one + 1 otherwise), or `nil` on a conflict.
    /// - Throws: ``MSAL/MSALError`` `cacheUnavailable` when PostgreSQL fails or does not answer within
    ///   ``operationTimeout``.
    public nonisolated(nonsending) func save(
        _ data: Data, for partition: TokenCachePartition, expiresOn: Date, expectedVersion: Int64?
    ) async throws -> Int64? {
        let key = PostgresData(string: partition.key)
        let bytes = PostgresData(bytes: data)
        let expiry = PostgresData(date: expiresOn)
        return try await performPrepared("save the \(partition.kind.rawValue) partition") { prepared in
            let rows =
                if let expectedVersion {
                    prepared.update.execute([key, bytes, expiry, PostgresData(int64: expectedVersion)])
                } else {
                    prepared.insert.execute([key, bytes, expiry])
                }
            return rows.flatMapThrowing { try $0.first?.binaryColumn(0, as: Int64.self) }
        }
    }

    /// Deletes the partition's row, if any.
    ///
    /// - Throws: ``MSAL/MSALError`` `cacheUnavailable` when PostgreSQL fails or does not answer within
    ///   ``operationTimeout``.
    public nonisolated(nonsending) func delete(_ partition: TokenCachePartition) async throws {
        let query = table.delete(partition.key)
        try await perform("delete the \(partition.kind.rawValue) partition") { [driverLogger] connection in
            try await connection.drain(query, logger: driverLogger)
        }
    }

    /// Deletes the rows whose expiry is before `date` (the app's date, not the database's clock).
    ///
    /// - Returns: how many were deleted.
    /// - Throws: ``MSAL/MSALError`` `cacheUnavailable` when PostgreSQL fails or does not answer within
    ///   ``operationTimeout``.
    public nonisolated(nonsending) func purgeExpired(before date: Date) async throws -> Int {
        let query = table.purge(before: date)
        return try await perform("purge expired partitions") { [driverLogger] connection in
            Int(try await connection.value(query, as: Int64.self, logger: driverLogger) ?? 0)
        }
    }
}
