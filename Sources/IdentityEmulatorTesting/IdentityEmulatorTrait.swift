import IdentityEmulator
import Testing

/// A swift-testing trait that runs each test (each case of a parameterized one, each test of a suite it marks) with
/// an identity emulator of its own (``withIdentityEmulator(directory:tls:_:)``), found in
/// ``IdentityEmulatorFixture/current`` while it runs.
///
///     @Test(.identityEmulator()) func profile() async throws {
///         let emulator = try #require(IdentityEmulatorFixture.current)
///         …
///     }
public struct IdentityEmulatorTrait: TestTrait, SuiteTrait, TestScoping {
    let directory: Directory
    let tls: Bool

    /// Each test of a suite gets an emulator of its own.
    public var isRecursive: Bool { true }

    /// Starts an emulator, runs the test with it as ``IdentityEmulatorFixture/current``, and stops it.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withIdentityEmulator(directory: directory, tls: tls) { fixture in
            try await IdentityEmulatorFixture.$current.withValue(fixture) { try await function() }
        }
    }
}

extension Trait where Self == IdentityEmulatorTrait {
    /// An identity emulator for each test, with `directory` (the demo directory by default), over HTTPS with a
    /// throwaway CA when `tls`.
    public static func identityEmulator(directory: Directory = .demo, tls: Bool = false) -> Self {
        IdentityEmulatorTrait(directory: directory, tls: tls)
    }
}

extension IdentityEmulatorFixture {
    /// The emulator of the running test, when it has the ``IdentityEmulatorTrait`` (`.identityEmulator()`).
    @TaskLocal public static var current: IdentityEmulatorFixture?
}
