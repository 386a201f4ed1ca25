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
        cache: PartitionedTokenCache = PartitionedTokenCache(), transport: (any HTTPTransport)? = nil,
        logger: Logger? = nil, redirectURI: String? = nil
    ) throws -> ConfidentialClientApplication {
        var configuration = try ConfidentialClientApplicationConfiguration(
            clientID: client ?? ids.confidentialClient, credential: credential ?? daemonSecret,
            authority: authority(tenant ?? ids.contosoTenant))
        configuration.clock = clock
        configuration.sleep = { _ in await Task.yield() }
        configuration.cache = cache
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
    private let state = Locked<(data: [String: Data], loads: [String], saves: [String])>(([:], [], []))

    var loads: [String] { state.withLock { $0.loads } }
    var saves: [String] { state.withLock { $0.saves } }
    func data(_ partition: TokenCachePartition) -> Data? { state.withLock { $0.data[partition.key] } }

    func load(_ partition: TokenCachePartition) async throws -> Data? {
        state.withLock {
            $0.loads.append(partition.description)
            return $0.data[partition.key]
        }
    }

    func save(_ data: Data, for partition: TokenCachePartition) async throws {
        state.withLock {
            $0.saves.append(partition.description)
            $0.data[partition.key] = data
        }
    }
}
