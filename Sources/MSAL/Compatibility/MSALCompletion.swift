import Dispatch
import Locking

// The blocks are not `@Sendable`, as MSAL for iOS/macOS's Objective-C blocks are not: the tutorials'
// blocks capture their view controller and other non-Sendable values. See ``Completion/call(_:on:)``.

/// Receives a token or the error (MSAL's `MSALCompletionBlock`).
public typealias MSALCompletionBlock = (_ result: MSALResult?, _ error: (any Error)?) -> Void
/// Receives the current account, the one signed in before it, or the error.
public typealias MSALCurrentAccountCompletionBlock = (
    _ account: MSALAccount?, _ previousAccount: MSALAccount?, _ error: (any Error)?
) -> Void
/// Receives the accounts or the error.
public typealias MSALAccountsCompletionBlock = (_ accounts: [MSALAccount]?, _ error: (any Error)?) -> Void
/// Receives whether the sign-out succeeded, or the error.
public typealias MSALSignoutCompletionBlock = (_ success: Bool, _ error: (any Error)?) -> Void
/// Receives the device information or the error.
public typealias MSALDeviceInformationCompletionBlock = (
    _ deviceInformation: MSALDeviceInformation?, _ error: (any Error)?
) -> Void

/// How the completion-block API runs the async core.
enum Completion {
    /// Where a block runs: the caller's queue, else main for interactive calls and sign-out (as MSAL
    /// documents), else ``background``.
    static func queue(_ parameters: MSALParameters?, interactive: Bool) -> DispatchQueue {
        parameters?.completionBlockQueue ?? (interactive ? .main : background)
    }

    /// Where other blocks run ("the queue the response arrived on" in MSAL): one serial queue, so
    /// such blocks never run at the same time as each other.
    static let background = DispatchQueue(label: "MSAL.completion")

    /// Runs `work` in a task and hands its value, or its error, to `block` on `queue`.
    static func deliver<Value: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () async throws -> Value,
        to block: @escaping (Value?, (any Error)?) -> Void
    ) {
        // Unchecked for the reason given in call(_:on:): the block runs once, on `queue`.
        nonisolated(unsafe) let block = block
        Task {
            do {
                let value = try await work()
                call({ block(value, nil) }, on: queue)
            } catch {
                call({ block(nil, error) }, on: queue)
            }
        }
    }

    /// Runs a completion block on `queue`. The block crosses threads without a Sendable check, as in
    /// MSAL for iOS/macOS: the library calls it exactly once, on that queue, after the call that took
    /// it has returned, and keeps no other reference; what it captures is the caller's to keep safe.
    static func call(_ block: @escaping () -> Void, on queue: DispatchQueue) {
        nonisolated(unsafe) let block = block
        queue.async { block() }
    }

    /// Blocks the calling thread until `work` finishes, for MSAL's synchronous account calls. The work
    /// runs on Swift's cooperative pool and touches no queue, so calling from the main thread is safe;
    /// from async code call the `async` overloads instead.
    static func wait<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
        let outcome = Locked<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<Value, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}
