import Foundation
import Locking
import Logging
import MSAL
import MSALPostgres
import PostgresNIO
import TestServers
import Testing

/// A table name no other test uses, so tests can share a cluster and run at once.
func uniqueTableName() -> String {
    "cache_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
}

/// Runs `body` with stores on the cluster, one per entry of `count`, sharing `table`; shuts them down afterwards, also
/// when `body` throws. The timeout is roomy, since the whole test suite shares two cores at once; tests of timeouts
/// give a short one.
func withStores(
    _ count: Int = 1, url: String? = nil, table: String = uniqueTableName(), timeout: Duration = .seconds(30),
    maximumConnections: Int = 10, logger: Logger = Logger(label: "msal.postgres.test"),
    _ body: ([PostgresTokenCacheStore]) async throws -> Void
) async throws {
    let cluster = try PostgresCluster.current
    let stores = try (0..<count).map { _ in
        try PostgresTokenCacheStore(
            url: url ?? cluster.socketURL, tableName: table, operationTimeout: timeout,
            maximumConnections: maximumConnections, logger: logger)
    }
    do {
        try await body(stores)
        for store in stores { await store.shutdown() }
    } catch {
        for store in stores { await store.shutdown() }
        throw error
    }
}

/// Runs `body` with one store on the cluster; see ``withStores(_:url:table:timeout:maximumConnections:logger:_:)``.
func withStore(
    url: String? = nil, table: String = uniqueTableName(), timeout: Duration = .seconds(30),
    maximumConnections: Int = 10, logger: Logger = Logger(label: "msal.postgres.test"),
    _ body: (PostgresTokenCacheStore) async throws -> Void
) async throws {
    try await withStores(
        1, url: url, table: table, timeout: timeout, maximumConnections: maximumConnections, logger: logger
    ) { try await body($0[0]) }
}

extension PostgresConnection {
    /// Runs `body` on a connection of its own to the suite's cluster (through its socket), then closes it: another
    /// session, to lock what a store needs or to end its sessions.
    static func withSession<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let cluster = try PostgresCluster.current
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                unixSocketPath: "\(cluster.root.path)/.s.PGSQL.\(cluster.port)", username: cluster.user,
                password: cluster.password, database: cluster.database),
            id: 1, logger: Logger(label: "test session"))
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// A partition of its own for each test.
func somePartition() -> TokenCachePartition {
    .appTokens(clientID: UUID().uuidString, tenant: "contoso.onmicrosoft.com")
}

extension StoredTokenCachePartition {
    /// The bytes and version alone, to compare with what a test saved (the store adds the expiry it kept).
    var withoutExpiry: Self { Self(data: data, version: version) }
}

/// Bytes standing for a partition's JSON.
func tokenBytes(_ text: String) -> Data { Data(#"{"AccessToken":{"secret":"\#(text)"}}"#.utf8) }

let inAnHour = Date().addingTimeInterval(3600)

/// Runs `operation` until it does not throw `cacheUnavailable`, at most `attempts` times: for a store with a short
/// timeout whose first connection, on a machine busy with other tests, may take longer than that.
func whenAvailable<T>(attempts: Int = 20, _ operation: () async throws -> T) async throws -> T {
    for _ in 1..<attempts {
        do {
            return try await operation()
        } catch let error as MSALError where error.internalCode == .cacheUnavailable {
            continue
        }
    }
    return try await operation()
}

/// Expects `operation` to throw `cacheUnavailable`, and returns the error and how long it took.
func expectUnavailable<T>(
    _ operation: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> MSALError? {
    do {
        _ = try await operation()
        Issue.record("expected cacheUnavailable, got a result", sourceLocation: sourceLocation)
        return nil
    } catch let error as MSALError {
        #expect(error.internalCode == .cacheUnavailable, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected an MSALError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A clock that starts now and moves only when a test moves it: the partitioned cache's, so a test can pass the
/// interval after which a failed store is asked again without waiting for it.
final class ManualClock: TimeSource {
    private let current = Locked(Date())

    func now() -> Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// Events in the order they happened.
final class EventLog: Sendable {
    private let events = Locked<[String]>([])

    func record(_ name: String) { events.withLock { $0.append(name) } }
    var names: [String] { events.withLock { $0 } }
}

/// Keeps every log line in memory, so a test can search it.
struct CapturingLogHandler: LogHandler {
    final class Lines: Sendable {
        let lines = Locked<[String]>([])
        var all: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    let store: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.lines.withLock { $0.append("\(event.level) \(event.message) \(merged)") }
    }
}
