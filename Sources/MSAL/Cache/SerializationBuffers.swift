import Foundation
import Locking

/// Keeps the memory of the last cache written for the next write. A large cache serializes to tens
/// of megabytes, and faulting in that many fresh pages costs more than writing the JSON: freeing the
/// buffer would hand its pages back to the kernel every time.
final class SerializationBuffers: Sendable {
    /// A `malloc`ed buffer, by address (an integer, so it can live behind the lock).
    private struct Spare {
        let address: UInt
        let capacity: Int
        var pointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: address)! }
    }

    private let spare = Locked<Spare?>(nil)

    deinit {
        spare.withLock { $0 }.map { free($0.pointer) }
    }

    /// The kept buffer when it holds at least `capacity` bytes; the caller then owns it.
    func take(atLeast capacity: Int) -> (pointer: UnsafeMutableRawPointer, capacity: Int)? {
        let kept = spare.withLock { spare -> Spare? in
            guard let kept = spare, kept.capacity >= capacity else { return nil }
            spare = nil
            return kept
        }
        return kept.map { ($0.pointer, $0.capacity) }
    }

    /// Hands a `malloc`ed buffer back: the larger of it and the one kept stays, the other is freed.
    func giveBack(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
        let returned = Spare(address: UInt(bitPattern: pointer), capacity: capacity)
        let unused = spare.withLock { spare -> Spare? in
            if let kept = spare, kept.capacity >= capacity { return returned }
            let previous = spare
            spare = returned
            return previous
        }
        unused.map { free($0.pointer) }
    }
}
