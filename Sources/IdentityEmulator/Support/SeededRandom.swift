import Foundation

/// Where the emulator's secrets (codes, refresh tokens, session cookies, continuation tokens) come from: the system's
/// cryptographically secure generator, or, with `--seed`, SplitMix64 so that a run is reproducible. SplitMix64's
/// output reveals its state, and so every later value: it is for reproducible tests only, never the default.
struct SeededRandom: RandomNumberGenerator, Sendable {
    /// SplitMix64's state, or `nil` for the system generator.
    private var state: UInt64?

    /// A reproducible sequence (SplitMix64).
    init(seed: UInt64) { state = seed }

    /// The system's secure generator.
    init() { state = nil }

    mutating func next() -> UInt64 {
        guard var state else {
            var system = SystemRandomNumberGenerator()
            return system.next()
        }
        state &+= 0x9E37_79B9_7F4A_7C15
        self.state = state
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(count + 7)
        while out.count < count {
            var word = next()
            for _ in 0..<8 {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return Array(out.prefix(count))
    }

    /// A lower-case GUID string.
    mutating func guid() -> String {
        var b = bytes(16)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return GUIDText.from(b)
    }

    /// An opaque token of `byteCount` random bytes, base64url encoded.
    mutating func opaque(_ byteCount: Int) -> String { Base64URL.encode(bytes(byteCount)) }

    /// Characters drawn from `alphabet`.
    mutating func string(_ length: Int, from alphabet: String) -> String {
        let chars = Array(alphabet)
        return String((0..<length).map { _ in chars[Int.random(in: 0..<chars.count, using: &self)] })
    }
}
