import ChildProcesses
import Foundation
import MSAL
import MSALPostgres
import TestServers

/// The two-level token cache on a loopback PostgreSQL (a throwaway cluster): web-app silent calls answered
/// from memory (L1) and from the table (L2), then app-token throughput of four processes (``DistributedWorker``)
/// sharing the table; each next to MSAL Python with one `SerializableTokenCache` per partition kept in PostgreSQL
/// (`bench/msal_python_distributed.py`), on the same server in the same run.
struct DistributedBenchmark {
    /// Partitions: web-app users for the latency rows, tenants for the throughput row.
    let partitions: Int
    /// How long each fleet's timed run lasts.
    let seconds: Int
    let processes = 4

    static let userClient = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
    static let userTenant = "8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b"

    struct Latency {
        let median: Duration
        let p99: Duration

        init(median: Duration, p99: Duration) {
            self.median = median
            self.p99 = p99
        }

        init(_ samples: [Duration]) {
            let sorted = samples.sorted()
            self.init(median: sorted[sorted.count / 2], p99: sorted[sorted.count * 99 / 100])
        }
    }

    /// What the four processes of one fleet did in their timed run, summed.
    struct Fleet {
        /// Calls per second, all processes together.
        let rate: Double
        /// Token requests while the processes first reached every partition at once.
        let warmUpTokenRequests: Int
        /// Token requests in the timed run.
        let timedTokenRequests: Int
    }

    struct Result {
        /// L1 hits for one user, again and again.
        let l1OneUser: Latency
        /// L1 hits for every user in turn.
        let l1: Latency
        let l2: Latency
        let fleet: Fleet
        let python: (l2: Latency?, fleet: Fleet?)
    }

    func run() async throws -> Result {
        try await PostgresCluster.with(maximumConnections: 120) { cluster in
            // The same users' partitions for both sides, issued now so that MSAL Python (the system clock) finds
            // them valid too.
            let users = Self.userPartitions(partitions, issuedAt: Int(Date().timeIntervalSince1970))
            let (l1OneUser, l1, l2) = try await userLatencies(users, url: cluster.socketURL)
            let fleet = try await Self.fleet(
                executable: CommandLine.arguments[0], ["distributed-worker", "\(partitions)", "\(seconds)"],
                processes: processes, url: cluster.socketURL)
            let pythonL2 = try? pythonUserLatency(users, url: cluster.socketURL)
            let pythonFleet = try? await Self.fleet(
                executable: PythonAnchor.interpreter,
                ["bench/msal_python_distributed.py", "apps", "\(partitions)", "\(seconds)"],
                processes: processes, url: cluster.socketURL)
            return Result(l1OneUser: l1OneUser, l1: l1, l2: l2, fleet: fleet, python: (pythonL2, pythonFleet))
        }
    }

    /// Each user's partition written to the table, then `account(identifier:)` and `acquireTokenSilently` for
    /// every user with nothing in memory (L2 hits), then `acquireTokenSilently` for every user again (L1 hits),
    /// and for one user 20,000 times.
    private func userLatencies(_ users: [(home: String, data: Data)], url: String) async throws
        -> (l1OneUser: Latency, l1: Latency, l2: Latency)
    {
        let store = try PostgresTokenCacheStore(url: url)
        do {
            let latencies = try await userLatencies(users, store: store)
            await store.shutdown()
            return latencies
        } catch {
            await store.shutdown()
            throw error
        }
    }

    private func userLatencies(_ users: [(home: String, data: Data)], store: PostgresTokenCacheStore) async throws
        -> (l1OneUser: Latency, l1: Latency, l2: Latency)
    {
        for (home, data) in users {
            _ = try await store.save(
                data, for: .user(homeAccountID: home), expiresOn: Date() + 3600, expectedVersion: nil)
        }
        let homes = users.map(\.home)
        // Connections made and the server's buffers warm, in a cache of its own.
        let warm = try Self.webApp(PartitionedTokenCache(store: store))
        for home in homes.prefix(500) { _ = try await Self.silent(warm, home) }

        let clock = ContinuousClock()
        let app = try Self.webApp(PartitionedTokenCache(store: store))
        var l2: [Duration] = []
        var accounts: [Account] = []
        for home in homes {
            let start = clock.now
            let account = try await Self.silent(app, home)
            l2.append(clock.now - start)
            accounts.append(account)
        }
        // One untimed pass first, as the other hit benchmarks warm up: the first lookups after a load are slower.
        for account in accounts {
            _ = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: account))
        }
        var l1: [Duration] = []
        for account in accounts {
            let start = clock.now
            _ = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: account))
            l1.append(clock.now - start)
        }
        // One user again and again, as the other hit benchmarks measure: its partition stays in the CPU's caches.
        let account = accounts[accounts.count / 2]
        var oneUser: [Duration] = []
        for _ in 0..<20_000 {
            let start = clock.now
            _ = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: account))
            oneUser.append(clock.now - start)
        }
        return (Latency(oneUser), Latency(l1), Latency(l2))
    }

    /// What a web app does with the user's id from its session: find the account, get its token silently.
    private static func silent(_ app: ConfidentialClientApplication, _ home: String) async throws -> Account {
        guard let account = try await app.account(identifier: home) else {
            throw BenchError("the user \(home) was not found in the table")
        }
        let result = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: account))
        guard result.source == .cache else { throw BenchError("a silent call reached the identity platform") }
        return account
    }

    private static func webApp(_ cache: PartitionedTokenCache) throws -> ConfidentialClientApplication {
        var configuration = ConfidentialClientApplicationConfiguration(
            clientID: userClient, credential: .secret("bench-secret"),
            authority: try Authority("https://login.microsoftonline.com/\(userTenant)"))
        configuration.transport = ClientCredentialsTransport()
        configuration.cache = cache
        return try ConfidentialClientApplication(configuration: configuration)
    }

    /// One partition per user: its home account id and its unified cache JSON.
    static func userPartitions(_ count: Int, issuedAt: Int) -> [(home: String, data: Data)] {
        (0..<count).map { index in
            let document = CacheFileBenchmark.document(accounts: index..<index + 1, issuedAt: issuedAt)
            let home = String(format: "%08x-0000-4000-8000-%012x.%@", index, index, userTenant)
            return (home, try! JSONSerialization.data(withJSONObject: document))
        }
    }

    /// MSAL Python's silent calls, each reading the user's row and building its app, on the same partitions.
    private func pythonUserLatency(_ users: [(home: String, data: Data)], url: String) throws -> Latency {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("msal-bench-users-\(UUID()).tsv")
        defer { try? FileManager.default.removeItem(at: file) }
        let lines = users.map {
            "\($0.home)\t\(String(decoding: $0.data, as: UTF8.self))"
        }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let result = try ChildProcess.runToEnd(
            PythonAnchor.interpreter, ["bench/msal_python_distributed.py", "users", file.path],
            environment: ProcessInfo.processInfo.environment.merging(["POSTGRES_URL": url]) { $1 }, error: .inherit)
        guard result.termination.succeeded,
            let figures = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Double],
            let median = figures["median_us"], let p99 = figures["p99_us"]
        else { throw BenchError("msal_python_distributed.py users failed") }
        return Latency(median: .microseconds(median), p99: .microseconds(p99))
    }

    /// Starts `processes` copies of a fleet worker, lets them all reach every partition, then starts their
    /// timed runs at once and sums what they report.
    private static func fleet(executable: String, _ arguments: [String], processes: Int, url: String) async throws
        -> Fleet
    {
        let workers = try (0..<processes).map { _ in
            try WorkerProcess(executable: executable, arguments: arguments, environment: ["POSTGRES_URL": url])
        }
        defer { for worker in workers { worker.finish() } }
        var warmUp = 0
        for worker in workers {
            // "ready N": N token requests so far.
            guard let line = worker.readLine(), line.hasPrefix("ready "), let requests = Int(line.dropFirst(6)) else {
                throw BenchError("\(executable) \(arguments[0]) did not get ready")
            }
            warmUp += requests
        }
        for worker in workers { worker.write("go\n") }
        var calls = 0.0
        var seconds = 0.0
        var tokenRequests = 0.0
        for worker in workers {
            guard let line = worker.readLine(),
                let figures = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Double]
            else { throw BenchError("\(executable) \(arguments[0]) stopped answering") }
            calls += figures["calls"] ?? 0
            seconds = max(seconds, figures["seconds"] ?? 0)
            tokenRequests += figures["token_requests"] ?? 0
        }
        // Each process's count includes its warm-up requests.
        return Fleet(
            rate: calls / max(seconds, 1e-9), warmUpTokenRequests: warmUp,
            timedTokenRequests: Int(tokenRequests) - warmUp)
    }
}
