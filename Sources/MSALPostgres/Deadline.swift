import Locking
import PostgresNIO

/// Thrown by ``withDeadline(_:_:)`` when the operation did not finish in time.
struct DeadlineExceeded: Error {}

/// Returns what `operation` returns, or throws ``DeadlineExceeded`` once `timeout` has passed (or
/// `CancellationError` when the caller's task is cancelled), cancelling the operation, without waiting for it to end.
///
/// The operation runs in a task of its own: postgres-nio does not always end soon after it is cancelled (a connection
/// lease cancelled while the request is being queued waits for a connection all the same), and the caller's deadline
/// must hold regardless. A query run under ``closingOnCancel(_:_:)`` stops when its connection closes. The deadline
/// is kept by ``DeadlineWatchdog``, so an operation arms no timer of its own.
func withDeadline<T: Sendable>(
    _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await racingDeadline(timeout) { race in
        let task = Task { race.finish(with: await Result { try await operation() }) }
        return { task.cancel() }
    }
}

/// Returns the value of the future `start` makes, or throws ``DeadlineExceeded`` once `timeout` has passed (or
/// `CancellationError` when the caller's task is cancelled), calling `abandon` then.
///
/// The future completes on its event loop and resumes the caller directly: no task of its own, and nothing left waiting
/// when postgres-nio never completes it (as it does not for a statement written to a connection that has just closed).
func withDeadline<T: Sendable>(
    _ timeout: Duration, future start: () -> EventLoopFuture<T>, abandon: @escaping @Sendable () -> Void
) async throws -> T {
    try await racingDeadline(timeout) { race in
        start().whenComplete { race.finish(with: $0) }
        return abandon
    }
}

/// Runs `start`, which begins an operation that reports to the race and returns how to abandon it, against the
/// deadline and the caller's cancellation; whichever comes first decides.
private func racingDeadline<T: Sendable>(
    _ timeout: Duration, _ start: (Race<T>) -> @Sendable () -> Void
) async throws -> T {
    let race = Race<T>()
    let watch = DeadlineWatchdog.shared.watch(until: .now + timeout) {
        race.abandon(with: .failure(DeadlineExceeded()))
    }
    defer { DeadlineWatchdog.shared.unwatch(watch) }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation) { start(race) }
        }
    } onCancel: {
        race.abandon(with: .failure(CancellationError()))
    }
}

/// The first outcome of an operation, its deadline and its caller's cancellation; whichever comes second finds the
/// continuation gone. The operation is abandoned (its task cancelled, its connection closed) only when it lost.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var outcome: Result<T, any Error>?
        var abandoned = false
        var abandon: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    /// Starts the operation, unless the race was decided before it began (the caller was cancelled, or the deadline
    /// passed).
    func start(_ continuation: CheckedContinuation<T, any Error>, operation: () -> @Sendable () -> Void) {
        let decided: Result<T, any Error>? = state.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let decided { return continuation.resume(with: decided) }
        let abandon = operation()
        let lost = state.withLock { state in
            state.abandon = abandon
            return state.abandoned
        }
        if lost { abandon() }
    }

    /// The operation's own outcome.
    func finish(with outcome: Result<T, any Error>) {
        decide(outcome, abandoning: false)
    }

    /// The deadline's or the cancellation's outcome: the operation is abandoned.
    func abandon(with outcome: Result<T, any Error>) {
        decide(outcome, abandoning: true)
    }

    private func decide(_ outcome: Result<T, any Error>, abandoning: Bool) {
        let (continuation, abandon) = state.withLock {
            state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard state.outcome == nil else { return (nil, nil) }
            state.outcome = outcome
            state.abandoned = abandoning
            defer { state.continuation = nil }
            return (state.continuation, abandoning ? state.abandon : nil)
        }
        continuation?.resume(with: outcome)
        abandon?()
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing body.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

/// Runs `operation` on `connection`, closing the connection if the task is cancelled: postgres-nio's queries do not
/// stop on cancellation, but they fail at once when their connection closes (and the server then ends the session,
/// releasing its advisory locks).
func closingOnCancel<T>(
    _ connection: PostgresConnection, _ operation: () async throws -> T
) async throws -> T {
    try await withTaskCancellationHandler(operation: operation) { connection.close() }
}
