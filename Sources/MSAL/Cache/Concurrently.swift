import Foundation
import Locking

/// Runs `first` on this thread and `second` on a new one at the same time, and returns both results
/// once both are done. For CPU-bound steps of loading a large cache file: starting a thread costs tens of
/// microseconds, so with `parallel` false (a small input) both run here, one after the other.
///
/// The result crosses threads through a `Locked`, so ThreadSanitizer sees the hand-over.
func concurrently<A, B: Sendable>(parallel: Bool = true, _ first: () -> A, _ second: () -> B) -> (A, B) {
    guard parallel else { return (first(), second()) }
    return withoutActuallyEscaping(second) { second in
        let handoff = Handoff<B>()
        // Safe to send: `second` runs once, on the new thread, and this function waits for it to end
        // before returning, so it never outlives the call.
        nonisolated(unsafe) let run = second
        Thread {
            let result = run()
            handoff.result.withLock { $0 = result }
            handoff.done.signal()
        }.start()
        let firstResult = first()
        handoff.done.wait()
        return (firstResult, handoff.result.withLock { $0.take()! })
    }
}

private final class Handoff<B: Sendable>: Sendable {
    let result = Locked<B?>(nil)
    let done = DispatchSemaphore(value: 0)
}
