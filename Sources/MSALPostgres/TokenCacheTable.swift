import Foundation
import MSAL
import NIOCore
import PostgresNIO

/// The store's table and its statements. Every value is a bind parameter; only the table's name is spliced into the
/// SQL, and it is checked to be a plain identifier first.
///
///     CREATE TABLE IF NOT EXISTS msal_token_cache (
///         partition_key TEXT PRIMARY KEY, data BYTEA NOT NULL, version BIGINT NOT NULL,
///         expires_at TIMESTAMPTZ NOT NULL, updated_at TIMESTAMPTZ NOT NULL DEFAULT now())
///     CREATE INDEX IF NOT EXISTS msal_token_cache_expires_at_idx ON msal_token_cache (expires_at)
///
/// What has expired is decided by the database's clock (`now()`), so a fleet whose clocks disagree still agrees on
/// which rows are live; only ``purge(before:)`` takes the app's date, as the protocol asks.
struct TokenCacheTable: Sendable {
    /// The table's name, possibly schema-qualified (`cache.msal_token_cache`).
    let name: String
    /// The index's name: the table's own, after any schema, and `_expires_at_idx`.
    private let indexName: String

    /// - Throws: `invalidParameter` unless `name` is one or two (schema, table) lowercase SQL identifiers of at most
    ///   48 characters each, which need no quoting and leave room for the index's name.
    init(name: String) throws {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            (1...2).contains(parts.count)
            && parts.allSatisfy { part in
                guard let first = part.first, first == "_" || ("a"..."z").contains(first), part.count <= 48 else {
                    return false
                }
                return part.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            }
        guard valid else {
            throw MSALError.internal(
                .invalidParameter,
                "The token cache's table name must be a lowercase SQL identifier ([a-z_][a-z0-9_]*, at most 48 "
                    + "characters), optionally after a schema and a dot.")
        }
        self.name = name
        self.indexName = "\(parts.last!)_expires_at_idx"
    }

    /// The table, or `NULL` when it does not exist (a role that may not create tables can use one made for it).
    var exists: PostgresQuery { "SELECT to_regclass(\(name)::text) IS NOT NULL" }

    var createTable: PostgresQuery {
        """
        CREATE TABLE IF NOT EXISTS \(unescaped: name) (
            partition_key TEXT PRIMARY KEY,
            data BYTEA NOT NULL,
            version BIGINT NOT NULL,
            expires_at TIMESTAMPTZ NOT NULL,
            updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )
        """
    }

    var createIndex: PostgresQuery {
        "CREATE INDEX IF NOT EXISTS \(unescaped: indexName) ON \(unescaped: name) (expires_at)"
    }

    /// The live row's `data`, `version` and `expires_at`; `$1` is the partition key.
    var selectSQL: String {
        "SELECT data, version, expires_at FROM \(name) WHERE partition_key = $1 AND expires_at > now()"
    }

    /// Inserts version 1, or replaces an expired row (which counts as absent) with its version + 1; returns no row
    /// when a live row exists (a conflict). `$1` the partition key, `$2` the data, `$3` the expiry.
    var insertSQL: String {
        """
        INSERT INTO \(name) AS t (partition_key, data, version, expires_at, updated_at)
        VALUES ($1, $2, 1, $3, now())
        ON CONFLICT (partition_key) DO UPDATE
            SET data = EXCLUDED.data, version = t.version + 1, expires_at = EXCLUDED.expires_at, updated_at = now()
            WHERE t.expires_at <= now()
        RETURNING version
        """
    }

    /// Replaces the live row of version `$4` and returns its new version; returns no row when the live row has
    /// another version or there is none (a conflict). `$1` the partition key, `$2` the data, `$3` the expiry.
    var updateSQL: String {
        """
        UPDATE \(name)
            SET data = $2, version = version + 1, expires_at = $3, updated_at = now()
            WHERE partition_key = $1 AND version = $4 AND expires_at > now()
        RETURNING version
        """
    }

    func delete(_ key: String) -> PostgresQuery {
        "DELETE FROM \(unescaped: name) WHERE partition_key = \(key)"
    }

    /// Deletes the rows that expired before `date` and returns how many.
    func purge(before date: Date) -> PostgresQuery {
        """
        WITH deleted AS (DELETE FROM \(unescaped: name) WHERE expires_at < \(date) RETURNING 1)
        SELECT count(*) FROM deleted
        """
    }
}
