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
        var bytes = withUnsafeBytes(of: (a.bigEndian, b.bigEndian)) { Array($0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
