import Foundation
import Locking
import Logging
import MSAL
import PostgresNIO

/// A ``MSAL/TokenCachePartitionStore`` in a PostgreSQL table, which every process naming the same database and table
/// shares: one row per partition, its bytes, a version for optimistic saves and the time it expires.
///
///     let store = try PostgresTokenCacheStore(url: "postgres://msal:secret@db.example.com/cache?sslrootcert=system")
///     let cache = PartitionedTokenCache(store: store)
///     …
///     await store.shutdown()
///
/// The table (`msal_token_cache` unless told) is made on first use, with `CREATE TABLE IF NOT EXISTS`, unless it
/// exists; a role that may not create tables can use one made for it with the same columns:
/// `partition_key TEXT PRIMARY KEY, data BYTEA NOT NULL, version BIGINT NOT NULL, expires_at TIMESTAMPTZ NOT NULL,
/// updated_at TIMESTAMPTZ NOT NULL DEFAULT now()`, indexed on `expires_at`. Whether a row has expired is decided by the
/// database's clock (`now()`), so processes whose clocks disagree still agree; ``purgeExpired(before:)`` takes the
/// app's date, as the protocol asks.
///
/// ## Running and shutting down
///
/// The store owns a postgres-nio `PostgresClient`, a pool of at most `maximumConnections` connections made on demand.
/// With three or more, it keeps one of them for the operations that find it free, which run their statement without
/// a lease from the pool or a task of their own; the others go through the pool. A pool works only while its `run()`
/// method runs: the store starts it in a task of its own when it is made, and
/// ``shutdown()`` cancels that task, which closes the connections, and waits for it to end. Call ``shutdown()`` when
/// the app stops; a store released without it cancels the task then, without waiting.
///
/// ## Failures
///
/// Every operation takes at most ``operationTimeout`` (2 seconds unless told): waiting for a connection, making one
/// and running the statement. When PostgreSQL cannot be reached, refuses, or is slower than that, the operation
/// throws ``MSAL/MSALError`` `cacheUnavailable` (the connection it was using is closed, and the server is asked, with
/// `statement_timeout`, to give up too). A save that threw so may still have been applied, if the server ran it
/// before giving up: the next load tells, by its version. A connection an operation gave up on, or whose session the
/// server ended, goes back to the pool only once it has closed, so after an outage or a restart the first operation
/// that reaches the server is answered. Neither errors nor log lines carry token bytes or the URL's password.
///
/// ## Refresh lock
///
/// ``withRefreshLock(_:timeout:_:)`` holds a session-level advisory lock on a connection of its own while the body
/// runs; see there.
public final class PostgresTokenCacheStore: TokenCachePartitionStore, CustomStringConvertible {
    /// Where the store connects (its description hides the password).
    public let url: PostgresConnectionURL
    /// The most one operation may take.
    public let operationTimeout: Duration
    /// The table's name, possibly schema-qualified.
    public var tableName: String { table.name }

    let table: TokenCacheTable
    /// The load and save statements, prepared on each connection.
    let statements: PreparedStatements
    let client: PostgresClient
    /// The app's logger, for the store's own lines.
    let logger: Logger
    /// The logger handed to postgres-nio: the app's, but never below `debug`, since at `trace` the driver logs every
    /// message it receives, rows of token bytes among them.
    let driverLogger: Logger
    /// One of the pool's connections, kept for operations that find it free; `nil` when the pool has fewer than three,
    /// which refresh locks and operations that find it lent need.
    let reserved: ReservedConnection?
    /// The pool's `run()`.
    private let running: Task<Void, Never>
    private let state = Locked(State())

    private struct State {
        var tableReady = false
        var isShutDown = false
    }

    /// A store for the database a `postgres://` or `postgresql://` URL names (see ``PostgresConnectionURL``).
    ///
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database?sslmode=verify-full&sslrootcert=system`, or with
    ///     `?host=/socket/folder`; ``PostgresSSLMode`` tells what each `sslmode` checks of the server.
    ///   - tableName: the table, a lowercase SQL identifier, optionally schema-qualified.
    ///   - operationTimeout: the most one operation may take (2 seconds by default).
    ///   - maximumConnections: the pool's size (10 by default); each ``withRefreshLock(_:timeout:_:)`` in progress
    ///     holds one, and with three or more the store keeps one for uncontended operations.
    ///   - logger: where the store logs (warnings when PostgreSQL fails or when the URL leaves a server other than
    ///     loopback unauthenticated, debug lines otherwise).
    /// - Throws: ``MSAL/MSALError`` `invalidParameter` when the URL, the table name or the `sslrootcert` file is not
    ///   valid. Nothing is connected yet: the first operation connects.
    public convenience init(
        url: String, tableName: String = "msal_token_cache", operationTimeout: Duration = .seconds(2),
        maximumConnections: Int = 10,
        logger: Logger = Logger(label: "msal.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        try self.init(
            url: PostgresConnectionURL(url), tableName: tableName, operationTimeout: operationTimeout,
            maximumConnections: maximumConnections, logger: logger)
    }

    /// A store for the database `url` names.
    ///
    /// - Parameters:
    ///   - url: the server, the credentials, the database and TLS.
    ///   - tableName: the table, a lowercase SQL identifier, optionally schema-qualified.
    ///   - operationTimeout: the most one operation may take (2 seconds by default).
    ///   - maximumConnections: the pool's size (10 by default).
    ///   - logger: where the store logs.
    /// - Throws: ``MSAL/MSALError`` `invalidParameter` when the table name or the `sslrootcert` file is not valid.
    public init(
        url: PostgresConnectionURL, tableName: String = "msal_token_cache", operationTimeout: Duration = .seconds(2),
        maximumConnections: Int = 10,
        logger: Logger = Logger(label: "msal.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.url = url
        self.table = try TokenCacheTable(name: tableName)
        self.statements = PreparedStatements(table: table)
        self.operationTimeout = operationTimeout
        self.logger = logger
        var driverLogger = logger
        driverLogger.logLevel = max(logger.logLevel, .debug)
        self.driverLogger = driverLogger
        let client = PostgresClient(
            configuration: try PostgresClient.Configuration(
                url: url, timeout: operationTimeout, maximumConnections: maximumConnections, logger: logger),
            backgroundLogger: driverLogger)
        self.client = client
        reserved = maximumConnections >= 3 ? ReservedConnection(preparationTimeout: operationTimeout) : nil
        running = Task { await client.run() }
    }

    deinit {
        reserved?.shutdown()
        running.cancel()
    }

    /// Closes the pool's connections and waits until they are closed, at most ``operationTimeout``; operations after
    /// it throw `cacheUnavailable`, and ``withRefreshLock(_:timeout:_:)`` runs its body without a lock.
    public func shutdown() async {
        state.withLock { $0.isShutDown = true }
        reserved?.shutdown()
        running.cancel()
        let running = running
        do {
            try await withDeadline(operationTimeout) { await running.value }
        } catch {
            logger.debug(
                "The token cache's connections were still closing after \(operationTimeout); not waiting longer.")
        }
    }

    /// `PostgresTokenCacheStore(postgres://user:***@host:5432/database?sslmode=require, table: msal_token_cache)`.
    public var description: String { "PostgresTokenCacheStore(\(url), table: \(table.name))" }

    var isShutDown: Bool { state.withLock { $0.isShutDown } }

    /// Runs `work` on a pooled connection (see `PostgresClient.withLease(_:)`), or on the connection of
    /// the refresh lock the task holds, all within ``operationTimeout``, after making the table on first use. When the
    /// work fails, the connection's prepared statements are forgotten.
    ///
    /// - Throws: `cacheUnavailable` naming `operation` and why, or `CancellationError` when the task was cancelled.
    func perform<T: Sendable>(
        _ operation: String, _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let locked = lockConnection
        do {
            guard !isShutDown else { throw StoreShutDown() }
            return try await withDeadline(operationTimeout) {
                let run: @Sendable (PostgresConnection) async throws -> T = { connection in
                    do {
                        try await self.prepareTable(on: connection)
                        return try await work(connection)
                    } catch {
                        self.statements.forget(connection)
                        throw error
                    }
                }
                if let locked { return try await closingOnCancel(locked) { try await run(locked) } }
                return try await self.client.withLease(run)
            }
        } catch {
            throw failure(operation, error)
        }
    }

    /// Runs one of the prepared statements: on the reserved connection when it is free, in the caller's task, its
    /// future racing ``operationTimeout`` (a connection that fails or runs out of time is closed and replaced); else
    /// through ``perform(_:_:)``.
    ///
    /// - Throws: `cacheUnavailable` naming `operation` and why, or `CancellationError` when the task was cancelled.
    func performPrepared<T: Sendable>(
        _ operation: String, _ statement: @escaping @Sendable (PreparedStatements.Prepared) -> EventLoopFuture<T>
    ) async throws -> T {
        if lockConnection == nil, !isShutDown, let reserved,
            let connection = reserved.borrow(
                from: client,
                preparing: { [weak self] in
                    guard let self else { throw StoreShutDown() }
                    try await self.prepareStatements(on: $0)
                })
        {
            if let prepared = statements.prepared(on: connection) {
                do {
                    let result = try await withDeadline(
                        operationTimeout, future: { statement(prepared) },
                        abandon: {
                            let close: () -> Void = connection.close
                            close()
                        })
                    reserved.giveBack(connection, healthy: true)
                    return result
                } catch {
                    reserved.giveBack(connection, healthy: false)
                    throw failure(operation, error)
                }
            }
            reserved.giveBack(connection, healthy: true)
        }
        return try await perform(operation) { [statements] connection in
            try await statement(statements.on(connection)).get()
        }
    }

    /// The connection of the refresh lock the task holds on this store, if any.
    private var lockConnection: PostgresConnection? {
        Self.lockConnection.flatMap { $0.store == ObjectIdentifier(self) ? $0.connection : nil }
    }

    /// What a failed operation throws: `CancellationError` when the task was cancelled, else `cacheUnavailable`
    /// (logged at debug level only: the cache in front reports an outage once, not every failed operation).
    private func failure(_ operation: String, _ error: any Error) -> any Error {
        if Task.isCancelled { return CancellationError() }
        let failure = cacheUnavailable(description, operation, error, timeout: operationTimeout)
        logger.debug("\(failure.message)")
        return failure
    }

    /// Makes the table on first use and prepares the connection's statements: for the reserved connection, before
    /// it is offered.
    func prepareStatements(on connection: PostgresConnection) async throws {
        try await prepareTable(on: connection)
        _ = try await statements.on(connection)
    }

    /// Makes the table and its index unless this store saw it already, or it exists; under a transaction-level
    /// advisory lock, since two `CREATE TABLE IF NOT EXISTS` at once can fail on the catalog's unique index.
    private func prepareTable(on connection: PostgresConnection) async throws {
        guard !state.withLock({ $0.tableReady }) else { return }
        if try await connection.value(table.exists, as: Bool.self, logger: driverLogger) != true {
            let lock = AdvisoryLockID.schema(table: table.name)
            try await connection.withTransaction(logger: driverLogger) { connection in
                try await connection.drain("SELECT pg_advisory_xact_lock(\(lock.value))", logger: driverLogger)
                try await connection.drain(table.createTable, logger: driverLogger)
                try await connection.drain(table.createIndex, logger: driverLogger)
            }
            logger.debug("Made the token cache table \(table.name), unless another process had.")
        }
        state.withLock { $0.tableReady = true }
    }
}
