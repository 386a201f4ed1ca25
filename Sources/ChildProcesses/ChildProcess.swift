// Linux and macOS: iOS, tvOS, watchOS and visionOS cannot start programs.
#if os(Linux) || os(macOS)
    import Dispatch
    import Foundation
    import Locking

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A program started with `posix_spawn`, and its end, noticed by a thread of its own that waits for it.
    ///
    /// Foundation's `Process` is not used anywhere: in swift-corelibs-foundation up to Swift 6.3, `Process.run()` reads
    /// past the end of a directory entry while it looks for the highest open descriptor, and crashes the process when
    /// that entry ends a page (swiftlang/swift-corelibs-foundation#5472). A child gets only its three standard streams
    /// (every other descriptor is closed) and every signal at its default, unblocked.
    package final class ChildProcess: Sendable {
        /// The child's process id, for signals.
        package let processIdentifier: pid_t
        /// This process's end of the child's standard input, when it is a ``ChildStream/pipe``.
        package let standardInput: FileHandle?
        /// This process's end of the child's standard output, when it is a ``ChildStream/pipe``.
        package let standardOutput: FileHandle?
        /// This process's end of the child's standard error, when it is a ``ChildStream/pipe``.
        package let standardError: FileHandle?

        private let state = Locked(WaitState())
        private let ended = DispatchGroup()

        private struct WaitState {
            var termination: Termination?
            var waiters: [Int: CheckedContinuation<Termination, any Error>] = [:]
            var nextWaiter = 0
        }

        /// Starts `path` (a path, not a name looked up on `PATH`).
        ///
        /// - Parameters:
        ///   - environment: the child's whole environment; `nil` passes this process's.
        ///   - workingDirectory: where the child starts; `nil` is this process's.
        /// - Throws: ``ChildProcessError`` when a pipe cannot be made or the program cannot be started.
        package init(
            _ path: String, _ arguments: [String] = [], environment: [String: String]? = nil,
            workingDirectory: String? = nil, input: ChildStream = .null, output: ChildStream = .null,
            error: ChildStream = .null
        ) throws(ChildProcessError) {
            let actions = SpawnActions()
            standardInput = try actions.connect(input, to: 0)
            standardOutput = try actions.connect(output, to: 1)
            standardError = try actions.connect(error, to: 2)
            if let workingDirectory { try actions.changeDirectory(to: workingDirectory) }
            actions.closeOthers()
            processIdentifier = try actions.spawn(path, arguments, environment: environment)
            ended.enter()
            Thread.detachNewThread { [self] in
                var status: Int32 = 0
                while waitpid(processIdentifier, &status, 0) == -1 && errno == EINTR {}
                let termination = Termination(waitStatus: status)
                let waiters = state.withLock { state in
                    state.termination = termination
                    defer { state.waiters = [:] }
                    return Array(state.waiters.values)
                }
                for waiter in waiters { waiter.resume(returning: termination) }
                ended.leave()
            }
        }

        /// Whether it has not ended yet.
        package var isRunning: Bool { state.withLock { $0.termination == nil } }

        /// Sends it `signal` (`SIGTERM`, `SIGKILL`, `SIGINT`); nothing once it has ended and been waited for.
        package func send(_ signal: Int32) {
            guard isRunning else { return }
            _ = kill(processIdentifier, signal)
        }

        /// Blocks the calling thread until it ends (never call it on a task of the cooperative pool).
        @discardableResult
        package func waitUntilExit() -> Termination {
            ended.wait()
            return state.withLock { $0.termination! }
        }

        /// Waits until it ends.
        ///
        /// - Throws: `CancellationError` when the task is cancelled first; the child goes on.
        @discardableResult
        package func exit() async throws -> Termination {
            let waiter = state.withLock { state in
                defer { state.nextWaiter += 1 }
                return state.nextWaiter
            }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let now: Result<Termination, any Error>? = state.withLock { state in
                        if let termination = state.termination { return .success(termination) }
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.waiters[waiter] = continuation
                        return nil
                    }
                    if let now { continuation.resume(with: now) }
                }
            } onCancel: {
                state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(throwing: CancellationError())
            }
        }
    }
#endif
