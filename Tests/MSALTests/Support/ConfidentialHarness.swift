import Foundation
import IdentityEmulator
import Locking
import Logging
import MSAL

/// Confidential clients against the emulator, with the test clock and an instant sleep.
extension Harness {
    /// The daemon's secret, the emulator's demo credential.
    var daemonSecret: ClientCredential { .secret(ids.confidentialSecret) }

    func confidentialApp(
        client: String? = nil, credential: ClientCredential? = nil, tenant: String? = nil,
        cache: PartitionedTokenCache? = nil, transport: (any HTTPTransport)? = nil,
        logger: Logger? = nil, redirectURI: String? = nil
    ) throws -> ConfidentialClientApplication {
        var configuration = try ConfidentialClientApplicationConfiguration(
            clientID: client ?? ids.confidentialClient, credential: credential ?? daemonSecret,
            authority: authority(tenant ?? ids.contosoTenant))
        configuration.clock = clock
        configuration.sleep = { _ in await Task.yield() }
        // Without one, the configuration's default: in memory, on the harness's clock.
        if let cache { configuration.cache = cache }
        configuration.redirectURI = redirectURI
        if let transport { configuration.transport = transport }
        if let logger { configuration.logger = logger }
        return try ConfidentialClientApplication(configuration: configuration)
    }

    var graphDefault: [String] { ["https://graph.microsoft.com/.default"] }
    var api1Default: [String] { ["api://\(ids.api1)/.default"] }
}

/// A partition store in memory that records which partitions were loaded and saved.
final class RecordingPartitionStore: TokenCachePartitionStore {
    let inner: InMemoryTokenCachePartitionStore
    private let log = Locked<(loads: [String], saves: [String])>(([], []))

    init(clock: any TimeSource = SystemTimeSource()) { inner = InMemoryTokenCachePartitionStore(clock: clock) }

    var loads: [String] { log.withLock { $0.loads } }
    var saves: [String] { log.withLock { $0.saves } }

    func data(_ partition: TokenCachePartition) async throws -> Data? { try await inner.load(partition)?.data }

    func load(_ partition: TokenCachePartition) async throws -> StoredTokenCachePartition? {
        log.withLock { $0.loads.append(partition.description) }
        return try await inner.load(partition)
    }

    func save(_ data: Data, for partition: TokenCachePartition, expiresOn: Date, expectedVersion: Int64?)
        async throws -> Int64?
    {
        log.withLock { $0.saves.append(partition.description) }
        return try await inner.save(data, for: partition, expiresOn: expiresOn, expectedVersion: expectedVersion)
    }

    func delete(_ partition: TokenCachePartition) async throws { try await inner.delete(partition) }

    func purgeExpired(before date: Date) async throws -> Int { try await inner.purgeExpired(before: date) }
}
