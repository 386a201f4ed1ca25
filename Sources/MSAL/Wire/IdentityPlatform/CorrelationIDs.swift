import Foundation
import Synchronization

/// Correlation ids for results and requests: random-looking v4 UUIDs from a generator seeded once by the
/// system, so a cache hit does not pay for a system call. They identify requests; they are not secrets.
/// The generator is SplitMix64, whose state only ever advances by a constant, so one atomic add
/// claims the two steps an id needs, without a lock.
final class CorrelationIDs: Sendable {
    private static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15
    private let state: Atomic<UInt64>

    init(seed: UInt64 = UInt64.random(in: .min ... .max)) {
        state = Atomic(seed)
    }

    func next() -> UUID {
        let before = state.wrappingAdd(2 &* Self.gamma, ordering: .relaxed).oldValue
        let (a, b) = (Self.mix(before &+ Self.gamma), Self.mix(before &+ 2 &* Self.gamma))
        // Version 4 and the RFC 4122 variant in bytes 6 and 8 of the big-endian 128 bits.
        let high = (a & ~0xF000) | 0x4000
        let low = (b & ~0xC000_0000_0000_0000) | 0x8000_0000_0000_0000
        return UUID(uuid: unsafeBitCast((high.bigEndian, low.bigEndian), to: uuid_t.self))
    }

    /// SplitMix64's output function for one state.
    private static func mix(_ state: UInt64) -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
