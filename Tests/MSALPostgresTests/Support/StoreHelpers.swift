import Foundation
import InMemoryLogging
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

    /// Runs `body` while a session of its own holds `table` locked (`ACCESS EXCLUSIVE`, in a transaction committed
    /// after `body`), so that every statement of a store on the table waits; `body` gets that session.
    static func withTableLocked<T>(_ table: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await withSession { blocker in
            let logger = Logger(label: "blocker")
            try await blocker.query("BEGIN", logger: logger)
            try await blocker.query("LOCK TABLE \(unescaped: table) IN ACCESS EXCLUSIVE MODE", logger: logger)
            let result = try await body(blocker)
            try await blocker.query("COMMIT", logger: logger)
            return result
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

/// Expects `operation` to throw `cacheUnavailable` for taking longer than `limit` ("3 s"): the store's own timer,
/// or the server's statement_timeout (SQLSTATE 57014), whichever fires first under load.
func expectTimedOut<T>(
    _ limit: String, _ operation: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) async {
    let error = await expectUnavailable(operation, sourceLocation: sourceLocation)
    #expect(
        error?.message.contains("no answer within \(limit)") == true || error?.message.contains("57014") == true,
        "\(String(describing: error))", sourceLocation: sourceLocation)
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

extension InMemoryLogHandler {
    /// A handler that keeps the lines of every level, down to trace.
    static func everyLevel() -> Self {
        var handler = Self()
        handler.logLevel = .trace
        return handler
    }

    /// The lines kept, each as "level message metadata", to search.
    var lines: [String] { entries.map { "\($0.level) \($0.message) \($0.metadata)" } }
    /// Every line kept, one after another.
    var all: String { lines.joined(separator: "\n") }
    /// The warnings kept.
    var warnings: [String] { lines.filter { $0.hasPrefix("warning ") } }
}
