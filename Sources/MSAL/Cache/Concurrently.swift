import Foundation
import Locking

/// Runs `first` on this thread and `second` on a new one at the same time, and returns both results
/// once both are done. For CPU-bound steps of loading a large cache file: starting a thread costs more than the
/// steps take on a small input, so with `parallel` false (a small input) both run here, one after the other.
///
/// The result crosses threads through a `Locked`, so ThreadSanitizer sees the hand-over.
func concurrently<A, B: Sendable>(parallel: Bool = true, _ first: () -> A, _ second: () -> B) -> (A, B) {
    guard parallel else { return (first(), second()) }
    return withoutActuallyEscaping(second) { second in
        let handoff = Handoff<B>(second)
        Thread { handoff.run() }.start()
        let firstResult = first()
        handoff.done.wait()
        return (firstResult, handoff.result.withLock { $0.take()! })
    }
}

private final class Handoff<B: Sendable>: Sendable {
    /// Set before the thread starts, then run and dropped by it alone (the thread may outlive the call,
    /// the closure must not), so never used by two threads at once.
    private nonisolated(unsafe) var work: (() -> B)?
    let result = Locked<B?>(nil)
    let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping () -> B) { self.work = work }

    func run() {
        let value = work!()
        work = nil
        result.withLock { $0 = value }
        done.signal()
    }
}
