import Foundation
import TestServers
import Testing

/// Runs a suite inside one throwaway cluster (``PostgresCluster/shared``), made before its first test and removed
/// after its last.
struct SharedPostgresCluster: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await PostgresCluster.with { cluster in
            try await PostgresCluster.$shared.withValue(cluster) { try await function() }
        }
    }
}

extension Trait where Self == SharedPostgresCluster {
    /// One throwaway PostgreSQL cluster for the whole suite.
    static var sharedPostgresCluster: Self { Self() }
}

extension PostgresCluster {
    /// The suite's cluster, under ``SharedPostgresCluster``.
    @TaskLocal static var shared: PostgresCluster?

    /// The suite's cluster; fails the test outside ``SharedPostgresCluster``.
    static var current: PostgresCluster {
        get throws { try #require(shared, "the suite needs the .sharedPostgresCluster trait") }
    }
}
