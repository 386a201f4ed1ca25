import Foundation

/// Where the library gets randomness (PKCE verifiers, `state`, `nonce`); injectable for tests.
public protocol RandomSource: Sendable {
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

/// The system's cryptographically secure generator.
public struct SystemRandomSource: RandomSource {
    /// The system generator.
    public init() {}

    /// `count` bytes from `SystemRandomNumberGenerator`.
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// Where the library gets the time; injectable so tests can expire tokens without waiting.
public protocol TimeSource: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system clock.
public struct SystemTimeSource: TimeSource {
    /// The system clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}
