import ChildProcesses
import Foundation
import IdentityEmulator
import InMemoryLogging
import Logging
import MSAL
import MSALPostgres
import TestServers
import Testing

/// Processes of a fleet sharing one token cache in a real PostgreSQL (a throwaway cluster), and
/// PostgreSQL going away under a running app. Stores wait up to 30 s unless a test is about timeouts: the suite
/// shares two cores with the others, and a first connection slower than the default 2 s would count as an outage.
@Suite("A fleet sharing a token cache in PostgreSQL", .timeLimit(.minutes(5)))
struct FleetTests {
    static let ids = Directory.DemoIDs.self
    static let scopes = [
        "https://graph.microsoft.com/.default", "api://\(Directory.DemoIDs.api1)/.default",
        "api://\(Directory.DemoIDs.api2)/.default",
    ]
    static var partition: TokenCachePartition {
        .appTokens(clientID: ids.confidentialClient, tenant: ids.contosoTenant)
    }

    @Test("four processes × 250 operations on one shared partition lose no write")
    func noLostWrite() async throws {
        try await PostgresCluster.with { cluster in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                let reports = try await Self.workers(
                    4, emulator: emulator, store: cluster.socketURL, arguments: ["--operations", "250"])
                let network = reports.map(\.network).reduce(0, +)
                #expect(reports.map(\.calls) == [250, 250, 250, 250])
                let store = try PostgresTokenCacheStore(
                    url: PostgresConnectionURL(cluster.socketURL), operationTimeout: .seconds(30))
                let stored = try #require(try await store.load(Self.partition))
                await store.shutdown()
                // Every token fetched was saved exactly once: each save is one version, conflicts were applied again.
                #expect(stored.version == Int64(network), "\(network) tokens fetched, version \(stored.version)")
                let json = try #require(try JSONSerialization.jsonObject(with: stored.data) as? [String: Any])
                let targets = ((json["AccessToken"] as? [String: [String: Any]]) ?? [:]).values.compactMap {
                    $0["target"] as? String
                }
                #expect(Set(targets) == Set(Self.scopes))
                #expect(try await Self.grants(emulator) == network)
            }
        }
    }

    @Test("4 processes × 100 concurrent callers with no usable token make exactly one token request")
    func oneRefreshAcrossProcesses() async throws {
        try await PostgresCluster.with { cluster in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                let reports = try await Self.workers(
                    4, emulator: emulator, store: cluster.socketURL, arguments: ["--callers", "100"])
                #expect(reports.map(\.calls) == [100, 100, 100, 100])
                #expect(
                    reports.filter { $0.network > 0 }.count == 1,
                    "only one process's callers got a token from the identity platform: \(reports.map(\.network))")
                #expect(try await Self.grants(emulator) == 1)
            }
        }
    }

    @Test("PostgreSQL stopped mid-run: tokens keep coming, one warning, writes resume after it starts again")
    func outage() async throws {
        try await PostgresCluster.with { cluster in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                let log = InMemoryLogHandler.everyLevel()
                let store = try PostgresTokenCacheStore(
                    url: PostgresConnectionURL(cluster.socketURL), operationTimeout: .seconds(3))
                // Connected and the table made before the app starts, so that only the outage is one.
                _ = try await whenAvailable { try await store.load(Self.partition) }
                let clock = ManualClock()
                let cache = PartitionedTokenCache(
                    store: store, storeRetryInterval: .seconds(5), logger: Logger(label: "t") { _ in log },
                    clock: clock)
                let app = try Self.app(emulator, cache: cache)
                let first = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: [Self.scopes[0]]))
                #expect(first.source == .identityProvider)

                try await cluster.stop(mode: "immediate")
                let during = try await app.acquireTokenForClient(
                    ClientCredentialParameters(scopes: [Self.scopes[0]], forceRefresh: true))
                #expect(during.source == .identityProvider)
                _ = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: [Self.scopes[1]]))
                #expect(log.warnings.count == 1, "\(log.warnings)")
                #expect(!log.all.contains(during.accessToken))

                try await cluster.start()
                let landed = try await Self.writeLands(app, scope: Self.scopes[0], clock: clock, cluster: cluster)
                #expect(landed, "no write reached PostgreSQL after it started again")
                #expect(log.all.contains("token cache store is back"))
                await store.shutdown()
            }
        }
    }

    @Test("PostgreSQL down when the app starts: tokens come from the network, one warning, writes land once it is up")
    func downAtStart() async throws {
        try await PostgresCluster.with { cluster in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                try await cluster.stop(mode: "immediate")
                let log = InMemoryLogHandler.everyLevel()
                let storeLog = InMemoryLogHandler.everyLevel()
                let store = try PostgresTokenCacheStore(
                    url: PostgresConnectionURL(cluster.socketURL), operationTimeout: .seconds(3),
                    logger: Logger(label: "s") { _ in storeLog })
                let clock = ManualClock()
                let cache = PartitionedTokenCache(
                    store: store, refreshLockWait: .seconds(3), storeRetryInterval: .seconds(5),
                    logger: Logger(label: "t") { _ in log }, clock: clock)
                let app = try Self.app(emulator, cache: cache)
                var tokens: [String] = []
                for scope in Self.scopes {
                    let result = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: [scope]))
                    #expect(result.source == .identityProvider)
                    tokens.append(result.accessToken)
                }
                // Answered from memory while the store is down, which was asked once: it is left alone for the
                // retry interval, so only the first call waited for its timeout.
                #expect(
                    try await app.acquireTokenForClient(ClientCredentialParameters(scopes: [Self.scopes[0]]))
                        .accessToken == tokens[0])
                let failedOperations = storeLog.all.components(separatedBy: "The PostgreSQL token cache").count - 1
                #expect(failedOperations == 1, "\(storeLog.all)")
                #expect(log.warnings.count == 1, "\(log.warnings)")
                for token in tokens { #expect(!log.all.contains(token)) }

                try await cluster.start()
                let landed = try await Self.writeLands(app, scope: Self.scopes[1], clock: clock, cluster: cluster)
                #expect(landed, "no write reached PostgreSQL after it started")
                await store.shutdown()
            }
        }
    }

    @Test("sealed rows in PostgreSQL: a dump holds no token, and rows do not open in another partition")
    func sealedRows() async throws {
        try await PostgresCluster.with { cluster in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                let store = try PostgresTokenCacheStore(
                    url: PostgresConnectionURL(cluster.socketURL), operationTimeout: .seconds(30))
                let key = try TokenCacheEncryptionKey(id: "k1", rawKey: Data(repeating: 3, count: 32))
                let sealed = EncryptedTokenCachePartitionStore(store, key: key)
                let token = try await Self.app(emulator, cache: PartitionedTokenCache(store: sealed))
                    .acquireTokenForClient(ClientCredentialParameters(scopes: [Self.scopes[0]]))
                let row = try #require(try await store.load(Self.partition))
                #expect(row.data.range(of: Data(token.accessToken.utf8)) == nil)
                let moved = TokenCachePartition.appTokens(
                    clientID: Self.ids.confidentialClient, tenant: Self.ids.fabrikamTenant)
                _ = try await store.save(row.data, for: moved, expiresOn: Date() + 3600, expectedVersion: nil)
                #expect(try await sealed.load(moved)?.data == Data())
                #expect(try await sealed.load(Self.partition).map { !$0.data.isEmpty } == true)
                await store.shutdown()
            }
        }
    }

    @Test("msal app token with its cache in PostgreSQL: the second run, a new process, gets the token from the cache")
    func commandLine() async throws {
        try await PostgresCluster.with { cluster in
            try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                let msal = Self.worker.deletingLastPathComponent().appendingPathComponent("msal")
                let arguments = [
                    "app", "token", "--client-id", Self.ids.confidentialClient, "--tenant", Self.ids.contosoTenant,
                    "--scopes", Self.scopes[0], "--client-secret-env", "DAEMON_SECRET", "--json",
                ]
                // The URL, with its password, comes from the environment, never the command line.
                let environment = [
                    "DAEMON_SECRET": Self.ids.confidentialSecret, "MSAL_TOKEN_CACHE": cluster.socketURL,
                    "MSAL_AUTHORITY": emulator.authority(Self.ids.contosoTenant).absoluteString,
                    "MSAL_TOKEN_CACHE_KEY": Data(repeating: 5, count: 32).base64EncodedString(),
                    "HOME": FileManager.default.temporaryDirectory.path,
                ]
                var sources: [String] = []
                for verbose in [false, true] {
                    let output = try await Self.run(
                        msal, arguments + (verbose ? ["--verbose"] : []), environment: environment)
                    let json = try #require(
                        try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any])
                    sources.append(json["source"] as? String ?? "?")
                    #expect(!output.err.contains(cluster.password), "the database password was printed")
                }
                #expect(sources == ["identity_provider", "cache"])
                #expect(try await Self.grants(emulator) == 1)

                // The user commands keep their tokens in a file: a database URL is refused, naming no password.
                do {
                    _ = try await Self.run(msal, ["accounts"], environment: environment)
                    Issue.record("msal accounts accepted a PostgreSQL cache")
                } catch let failure as WorkerFailure {
                    #expect(failure.description.contains("holds app tokens for msal app token"), "\(failure)")
                    #expect(!failure.description.contains(cluster.password))
                }
            }
        }
    }

    // MARK: Support

    static func app(_ emulator: RunningEmulator, cache: PartitionedTokenCache) throws -> ConfidentialClientApplication {
        var configuration = try ConfidentialClientApplicationConfiguration(
            clientID: ids.confidentialClient, credential: .secret(ids.confidentialSecret),
            authority: Authority(emulator.authority(ids.contosoTenant).absoluteString))
        configuration.cache = cache
        return try ConfidentialClientApplication(configuration: configuration)
    }

    struct Report: Decodable {
        let calls: Int
        let network: Int
    }

    /// Starts `count` fleet workers at once and waits for all; each must exit 0 and print its report.
    static func workers(_ count: Int, emulator: RunningEmulator, store: String, arguments: [String]) async throws
        -> [Report]
    {
        try await withThrowingTaskGroup(of: Report.self) { group in
            for index in 0..<count {
                group.addTask {
                    let output = try await run(
                        worker,
                        [
                            "--authority", emulator.authority(ids.contosoTenant).absoluteString, "--client",
                            ids.confidentialClient, "--store", store, "--index", "\(index)", "--scopes",
                        ] + scopes + arguments,
                        environment: ["FLEET_CLIENT_SECRET": ids.confidentialSecret])
                    return try JSONDecoder().decode(Report.self, from: Data(output.out.utf8))
                }
            }
            return try await group.reduce(into: [Report]()) { $0.append($1) }
        }
    }

    /// Whether a token fetched after PostgreSQL came back reaches its table. The pool reconnects on its own, and the
    /// first write after a restart may still meet a dead connection, so up to five are made, each a new token the
    /// cache saves, each after the interval in which the cache leaves a failed store alone.
    static func writeLands(
        _ app: ConfidentialClientApplication, scope: String, clock: ManualClock, cluster: PostgresCluster
    ) async throws -> Bool {
        let reader = try PostgresTokenCacheStore(
            url: PostgresConnectionURL(cluster.socketURL), operationTimeout: .seconds(30))
        var landed = false
        for _ in 0..<5 where !landed {
            clock.advance(by: 5)
            let after = try await app.acquireTokenForClient(
                ClientCredentialParameters(scopes: [scope], forceRefresh: true))
            let stored = try? await reader.load(partition)
            landed = stored.map { String(decoding: $0.data, as: UTF8.self).contains(after.accessToken) } ?? false
        }
        await reader.shutdown()
        return landed
    }

    /// Token-endpoint requests of `grantType` the emulator served.
    static func grants(_ emulator: RunningEmulator, _ grantType: String = "client_credentials") async throws -> Int {
        let url = emulator.baseURL.appendingPathComponent("_emulator/requests")
        let (_, body) = try await DefaultHTTPTransport().send(
            HTTPRequest(method: .get, url: URL(string: url.absoluteString + "?path=/oauth2/v2.0/token")!), body: nil)
        let json = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        let requests = (json?["requests"] as? [[String: Any]]) ?? []
        return requests.filter { $0["grant_type"] as? String == grantType }.count
    }

    static var worker: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("fleet-worker")
    }

    /// Runs a program to its end; its standard output and error, or an error naming its exit status and standard error.
    static func run(_ program: URL, _ arguments: [String], environment: [String: String]) async throws -> (
        out: String, err: String
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (out, err) = (folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
        let process = try ChildProcess(
            program.path, arguments, environment: environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a },
            output: .file(out.path), error: .file(err.path))
        let termination = try await process.exit()
        let (output, errors) = (
            try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8)
        )
        guard termination.succeeded else {
            throw WorkerFailure(description: "\(program.lastPathComponent) \(termination): \(errors)")
        }
        return (output, errors)
    }

    struct WorkerFailure: Error, CustomStringConvertible {
        let description: String
    }
}
