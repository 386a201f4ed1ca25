import Foundation
import Testing

@testable import IdentityEmulator

/// The emulator's secrets come from the system's secure generator unless a seed is given: one secret must not
/// reveal the next, as SplitMix64's output (invertible to its state) would.
@Suite("The emulator's secrets are unpredictable without --seed")
struct SecretRandomnessTests {
    /// The next SplitMix64 output after `output`, recovered by inverting the output function.
    static func splitMixSuccessor(of output: UInt64) -> UInt64 {
        func inverse(_ odd: UInt64) -> UInt64 {
            var y = odd
            for _ in 0..<6 { y = y &* (2 &- odd &* y) }
            return y
        }
        var x = output ^ (output >> 31) ^ (output >> 62)
        x = x &* inverse(0x94D0_49BB_1331_11EB)
        x = x ^ (x >> 27) ^ (x >> 54)
        x = x &* inverse(0xBF58_476D_1CE4_E5B9)
        x = x ^ (x >> 30) ^ (x >> 60)
        var next = SeededRandom(seed: x)
        return next.next()
    }

    /// An 8-byte opaque secret read back as the generator's word.
    static func word(_ opaque: String) throws -> UInt64 {
        let bytes = try #require(Base64URL.decode(Substring(opaque)))
        return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    @Test("with a seed, one secret predicts the next (the inversion is right); without one, it does not")
    func oneSecretDoesNotRevealTheNext() throws {
        let seeded = EmulatorState(directory: .demo, clock: EmulatorClock(), seed: 42)
        let first = try Self.word(seeded.opaque(8))
        #expect(try Self.word(seeded.opaque(8)) == Self.splitMixSuccessor(of: first))

        let secure = EmulatorState(directory: .demo, clock: EmulatorClock(), seed: nil)
        var predicted = 0
        for _ in 0..<64 {
            let word = try Self.word(secure.opaque(8))
            if try Self.word(secure.opaque(8)) == Self.splitMixSuccessor(of: word) { predicted += 1 }
        }
        #expect(predicted == 0)
    }
}
