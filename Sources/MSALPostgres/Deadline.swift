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
    let race = Race<T>()
    let watch = DeadlineWatchdog.shared.watch(until: .now + timeout) {
        race.finish(with: .failure(DeadlineExceeded()))
    }
    defer { DeadlineWatchdog.shared.unwatch(watch) }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation) {
                Task { race.finish(with: await Result { try await operation() }) }
            }
        }
    } onCancel: {
        race.finish(with: .failure(CancellationError()))
    }
}

/// The first outcome of an operation and its deadline; whichever comes second finds the continuation gone and cancels
/// nothing more.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var outcome: Result<T, any Error>?
        var operation: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// Starts the operation, unless the race was decided before it began (the caller was cancelled, or the deadline
    /// passed).
    func start(_ continuation: CheckedContinuation<T, any Error>, operation: () -> Task<Void, Never>) {
        let decided: Result<T, any Error>? = state.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let decided { return continuation.resume(with: decided) }
        let operationTask = operation()
        let finished = state.withLock { state in
            state.operation = operationTask
            return state.continuation == nil
        }
        if finished { operationTask.cancel() }
    }

    /// Records the first outcome, resumes the caller with it and cancels the operation.
    func finish(with outcome: Result<T, any Error>) {
        let (continuation, operation) = state.withLock {
            state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?) in
            guard state.outcome == nil else { return (nil, nil) }
            state.outcome = outcome
            defer { state.continuation = nil }
            return (state.continuation, state.operation)
        }
        continuation?.resume(with: outcome)
        operation?.cancel()
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
