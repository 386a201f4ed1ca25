import Crypto
import Foundation

/// The 64-bit key of a PostgreSQL advisory lock, the same in every process for the same name: the first 8 bytes,
/// big-endian, of the SHA-256 of `msal-token-cache:<table>:<purpose>:<name>`. The table and purpose keep the locks of
/// two stores in one database, and the refresh locks and the schema lock, apart.
struct AdvisoryLockID: Sendable, Equatable {
    /// The lock key `pg_advisory_lock(bigint)` and its kin take.
    let value: Int64

    init(table: String, purpose: String, name: String) {
        let digest = SHA256.hash(data: Data("msal-token-cache:\(table):\(purpose):\(name)".utf8))
        value = Int64(bitPattern: digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// The refresh lock of one partition.
    static func refresh(table: String, partitionKey: String) -> AdvisoryLockID {
        AdvisoryLockID(table: table, purpose: "refresh", name: partitionKey)
    }

    /// The lock taken, for one transaction, while the table is created.
    static func schema(table: String) -> AdvisoryLockID {
        AdvisoryLockID(table: table, purpose: "schema", name: "")
    }
}
