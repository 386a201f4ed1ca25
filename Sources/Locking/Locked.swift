import CThreadSanitizerHooks
import Synchronization

/// A value behind a `Synchronization.Mutex`, whose hand-overs ThreadSanitizer can see.
///
/// When a `Mutex` is contended, it waits in the kernel from inside the standard library, which is not
/// instrumented, so ThreadSanitizer misses that one critical section ends before the next begins and
/// reports races that cannot happen. `Locked` tells it explicitly: acquire after locking, release before
/// unlocking. Without ThreadSanitizer the two hooks do nothing.
///
/// `init` and `withLock` are inlinable so that callers in other modules get them specialised for their state and
/// result types, as `Mutex`'s are; otherwise every call instantiates generic metadata at run time, and making a
/// lock over a dictionary keyed by a type of the caller's (`Locked<[URL: …]>`) asks the runtime for that key's
/// `Hashable` conformance, a search of every conformance in the binary the first time.
public struct Locked<State: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<State>
    /// Names this lock to ThreadSanitizer: an object's address is stable and unique while it lives.
    @usableFromInline let identity = Identity()

    /// - Parameter initialValue: the state the lock starts with.
    @inlinable
    public init(_ initialValue: consuming sending State) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the state.
    /// - Parameter body: reads or changes the state; must not block or suspend.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let address = Unmanaged.passUnretained(identity).toOpaque()
        return try mutex.withLock { (state: inout sending State) throws(E) -> sending Result in
            msal_tsan_acquire(address)
            defer { msal_tsan_release(address) }
            return try body(&state)
        }
    }
}

@usableFromInline final class Identity: Sendable {
    @usableFromInline init() {}
}
