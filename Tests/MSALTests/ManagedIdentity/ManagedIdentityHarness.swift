import Foundation
import IdentityEmulator
import Locking
import Logging
import Testing

@testable import MSAL

/// The pauses a managed identity app took between retries, recorded instead of waited.
final class RecordedPauses: Sendable {
    private let pauses = Locked<[Duration]>([])
    var all: [Duration] { pauses.withLock { $0 } }
    func record(_ pause: Duration) { pauses.withLock { $0.append(pause) } }
}

extension Harness {
    /// An app on the emulator's host `host`, configured from the environment the emulator gives that host, on the
    /// harness's clock, trusting the emulator's CA, with pauses recorded in `pauses` instead of waited; its own cache
    /// unless `cache` is given.
    func managedIdentityApp(
        host: String, identity: ManagedIdentity = .systemAssigned, arcKeyFolder: URL? = nil,
        pauses: RecordedPauses = RecordedPauses(), retryPolicy: ManagedIdentityRetryPolicy = .init(),
        logger: Logger? = nil, cache: PartitionedTokenCache? = nil
    ) throws -> ManagedIdentityApplication {
        var configuration = try ManagedIdentityApplicationConfiguration(identity: identity)
        configuration.environment = try #require(emulator.managedIdentityEnvironment(host: host))
        configuration.arcAgentPath = "/nonexistent/himds"
        if let arcKeyFolder { configuration.arcKeyFolder = arcKeyFolder.path }
        configuration.transport = try DefaultHTTPTransport(trustedCAPEM: emulator.caCertificatePEM)
        configuration.clock = clock
        configuration.cache = cache ?? PartitionedTokenCache(clock: clock)
        configuration.retryPolicy = retryPolicy
        configuration.sleep = { pauses.record($0) }
        if let logger { configuration.logger = logger }
        return try ManagedIdentityApplication(configuration: configuration)
    }

    /// The managed identity requests the emulator served to paths ending in `suffix`, with their statuses.
    func managedIdentityRequests(_ suffix: String) async throws -> [Int] {
        let json = try await admin("GET", "requests?path=\(suffix)")
        return ((json["requests"] as? [[String: Any]]) ?? []).compactMap { $0["status"] as? Int }
    }

    /// Runs `body` with the emulator on HTTPS (for Service Fabric's pinned certificate), managed identity tokens
    /// living a day, and the Arc hosts' key files in a temporary folder.
    static func withAzureHosts(_ body: @Sendable (Harness, URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = folder.appendingPathComponent("tokens")
        try await Harness.with(
            accessTokenLifetime: nil, tlsDirectory: folder.appendingPathComponent("tls"), arcKeyFolder: keys
        ) { h in try await body(h, keys) }
    }
}
