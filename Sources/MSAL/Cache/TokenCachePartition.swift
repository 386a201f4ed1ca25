import Crypto
import Foundation

/// One partition of a confidential client's token cache: the unit a ``TokenCachePartitionStore``
/// loads and saves (MSAL.NET's `SuggestedCacheKey`).
public struct TokenCachePartition: Sendable, Hashable, CustomStringConvertible {
    /// What the partition holds.
    public enum Kind: String, Sendable {
        /// App-only tokens of one client in one tenant (client credentials).
        case appTokens
        /// Tokens obtained on behalf of one incoming user token.
        case onBehalfOf
        /// One user's tokens in a web app.
        case user
    }

    /// What the partition holds.
    public let kind: Kind
    /// The partition's key, safe to use as a database key or file name: `{clientID}_{tenant}_AppTokenCache`
    /// for app tokens, the assertion hash for on-behalf-of, the home account id for users (MSAL.NET's formats).
    public let key: String

    /// A partition; apps name them through the factories below.
    public init(kind: Kind, key: String) {
        self.kind = kind
        self.key = key
    }

    /// The app tokens of `clientID` in `tenant`.
    public static func appTokens(clientID: String, tenant: String) -> TokenCachePartition {
        TokenCachePartition(kind: .appTokens, key: "\(clientID.lowercased())_\(tenant.lowercased())_AppTokenCache")
    }

    /// The tokens obtained on behalf of `userAssertion`, keyed by its hash (never the token itself).
    public static func onBehalfOf(userAssertion: String) -> TokenCachePartition {
        TokenCachePartition(kind: .onBehalfOf, key: assertionHash(userAssertion))
    }

    /// The tokens of the user with this home account id (`uid.utid`).
    public static func user(homeAccountID: String) -> TokenCachePartition {
        TokenCachePartition(kind: .user, key: homeAccountID.lowercased())
    }

    /// SHA-256 of the assertion, base64url without padding (MSAL.NET's `user_assertion_hash`).
    static func assertionHash(_ assertion: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(assertion.utf8)))
    }

    /// The kind and key.
    public var description: String { "\(kind.rawValue):\(key)" }
}

/// Where a partitioned token cache keeps its partitions between runs and across a fleet of
/// processes: each call names one partition, so a store keyed by partition reads and writes only it.
///
/// As with ``TokenCachePersistence``, ``version(of:)`` and ``lock(_:)`` let processes that share the
/// store see each other's changes; their defaults suit a store only this process writes.
public protocol TokenCachePartitionStore: Sendable {
    /// The partition's bytes (MSAL's unified cache JSON), or `nil` when none are stored.
    nonisolated(nonsending) func load(_ partition: TokenCachePartition) async throws -> Data?
    /// Replaces the partition's bytes.
    nonisolated(nonsending) func save(_ data: Data, for partition: TokenCachePartition) async throws
    /// A fingerprint of the partition's stored bytes; `nil` when only this process writes them.
    nonisolated(nonsending) func version(of partition: TokenCachePartition) async throws -> StorageVersion?
    /// Excludes other writers of the partition until released; `nil` when none is needed.
    nonisolated(nonsending) func lock(_ partition: TokenCachePartition) async throws -> (any StorageLock)?
}

extension TokenCachePartitionStore {
    /// No fingerprint: only this process writes the partition, so it is loaded once.
    public nonisolated(nonsending) func version(of partition: TokenCachePartition) async throws -> StorageVersion? {
        nil
    }
    /// No lock: only this process writes the partition.
    public nonisolated(nonsending) func lock(_ partition: TokenCachePartition) async throws -> (any StorageLock)? {
        nil
    }
}

/// One partition of a store, seen as the persistence of one ``TokenCache``.
struct PartitionPersistence: TokenCachePersistence {
    let store: any TokenCachePartitionStore
    let partition: TokenCachePartition

    nonisolated(nonsending) func load() async throws -> Data? { try await store.load(partition) }
    nonisolated(nonsending) func save(_ data: Data) async throws { try await store.save(data, for: partition) }
    nonisolated(nonsending) func version() async throws -> StorageVersion? { try await store.version(of: partition) }
    nonisolated(nonsending) func lock() async throws -> (any StorageLock)? { try await store.lock(partition) }
}
