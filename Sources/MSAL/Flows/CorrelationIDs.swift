import Foundation
import Locking

/// Correlation ids for results and requests: random-looking v4 UUIDs from a generator seeded once by the
/// system, so a cache hit does not pay for a system call. They identify requests; they are not secrets.
final class CorrelationIDs: Sendable {
    private let state: Locked<UInt64>

    init(seed: UInt64 = UInt64.random(in: .min ... .max)) {
        state = Locked(seed)
    }

    func next() -> UUID {
        let (a, b) = state.withLock { state -> (UInt64, UInt64) in
            (Self.splitMix(&state), Self.splitMix(&state))
        }
        // Version 4 and the RFC 4122 variant in bytes 6 and 8 of the big-endian 128 bits.
        let high = (a & ~0xF000) | 0x4000
        let low = (b & ~0xC000_0000_0000_0000) | 0x8000_0000_0000_0000
        return UUID(uuid: unsafeBitCast((high.bigEndian, low.bigEndian), to: uuid_t.self))
    }

    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
