import Foundation
import Logging
import MSAL
import MSALPostgres

/// One process of the distributed benchmark's fleet (`msal-bench distributed-worker PARTITIONS SECONDS`, the
/// database's URL in `$POSTGRES_URL`): a multi-tenant daemon with one confidential client per tenant, all sharing
/// one ``PartitionedTokenCache`` in front of the PostgreSQL table. 16 tasks first reach every tenant (the processes
/// at once, so that the refresh lock decides who asks for each token), then it prints `ready N` (N: token requests
/// so far), waits for a line on its standard input, calls `acquireTokenForClient` for random tenants for SECONDS and
/// prints `{"calls": …, "seconds": …, "token_requests": …}`, as `bench/msal_python_distributed.py apps` does.
struct DistributedWorker {
    static let client = "2c9e5b7a-8f14-4d3c-b6a9-7e0d1f2c3b45"
    static let tasks = 16

    let partitions: Int
    let seconds: Int

    func run() async throws {
        guard let url = ProcessInfo.processInfo.environment["POSTGRES_URL"] else {
            throw BenchError("POSTGRES_URL is not set")
        }
        // MSAL_BENCH_LOG=debug shows the store's and the cache's lines on standard error.
        var logger = Logger(label: "msal-bench") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel =
            ProcessInfo.processInfo.environment["MSAL_BENCH_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        let store = try PostgresTokenCacheStore(url: url, operationTimeout: .seconds(30), logger: logger)
        let cache = PartitionedTokenCache(store: store, refreshLockWait: .seconds(30), logger: logger)
        let transport = ClientCredentialsTransport()
        let apps = try (0..<partitions).map { index in
            var configuration = ConfidentialClientApplicationConfiguration(
                clientID: Self.client, credential: .secret("bench-secret"),
                authority: try Authority("https://login.microsoftonline.com/\(Self.tenant(index))"))
            configuration.transport = transport
            configuration.cache = cache
            return try ConfidentialClientApplication(configuration: configuration)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for index in stride(from: task, to: apps.count, by: Self.tasks) {
                        _ = try await apps[index].acquireTokenForClient(
                            ClientCredentialParameters(scopes: ConfidentialBenchmark.scopes))
                    }
                }
            }
            try await group.waitForAll()
        }
        FileHandle.standardOutput.write(Data("ready \(transport.tokenRequests)\n".utf8))
        _ = Swift.readLine()

        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .seconds(seconds))
        let calls = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    var random = SplitMix64(seed: UInt64(task))
                    var calls = 0
                    while clock.now < deadline {
                        let index = Int(random.next() % UInt64(apps.count))
                        _ = try await apps[index].acquireTokenForClient(
                            ClientCredentialParameters(scopes: ConfidentialBenchmark.scopes))
                        calls += 1
                    }
                    return calls
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = clock.now - start
        await store.shutdown()
        print(
            #"{"calls": \#(calls), "seconds": \#(Double(elapsed.microseconds) / 1e6), "token_requests": \#(transport.tokenRequests)}"#
        )
    }

    /// The tenants `bench/msal_python_distributed.py` uses.
    static func tenant(_ index: Int) -> String { String(format: "%08x-0000-4000-8000-%012x", index, index) }
}

/// A seeded generator, so each task's sequence of tenants is the same from run to run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
