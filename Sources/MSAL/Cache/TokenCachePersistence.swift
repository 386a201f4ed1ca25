import Foundation

/// Where a token cache's bytes live between runs (a file, a keyring, a database).
///
/// The cache calls ``load()`` before reading and ``save(_:)`` after every change. Implementations
/// decide about locking and atomicity; the persistent-cache issue adds a file implementation.
public protocol TokenCachePersistence: Sendable {
    /// The stored bytes, or `nil` when nothing is stored yet.
    ///
    /// - Throws: when the storage cannot be read.
    func load() async throws -> Data?

    /// Replaces the stored bytes.
    ///
    /// - Throws: when the storage cannot be written.
    func save(_ data: Data) async throws
}
