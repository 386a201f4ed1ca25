// Linux and macOS: iOS, tvOS, watchOS and visionOS cannot start programs.
#if os(Linux) || os(macOS)
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// What a program run to its end printed, and how it ended.
    package struct ProgramOutput: Sendable {
        package let termination: Termination
        /// Its standard output (and standard error, when that went to standard output).
        package let standardOutput: Data
        /// Its standard error, when that was a ``ChildStream/pipe``.
        package let standardError: Data

        /// Its standard output as text.
        package var text: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Its standard error as text.
        package var errorText: String { String(decoding: standardError, as: UTF8.self) }
    }

    extension ChildProcess {
        /// Runs a program to its end, blocking the calling thread (never a task of the cooperative pool), and collects
        /// what it printed on its standard output and, when `error` is ``ChildStream/pipe``, its standard error.
        ///
        /// `input` is written on a thread of its own, so a program that prints before it has read everything never
        /// blocks on a full pipe; a program that ends without reading it all makes the rest go unwritten, not this
        /// process end on `SIGPIPE`.
        ///
        /// - Throws: ``ChildProcessError`` when it cannot be started.
        package static func runToEnd(
            _ path: String, _ arguments: [String] = [], environment: [String: String]? = nil,
            workingDirectory: String? = nil, input: Data? = nil, error: ChildStream = .null
        ) throws(ChildProcessError) -> ProgramOutput {
            let child = try ChildProcess(
                path, arguments, environment: environment, workingDirectory: workingDirectory,
                input: input == nil ? .null : .pipe, output: .pipe, error: error)
            if let input, let writer = child.standardInput {
                Thread.detachNewThread {
                    var pipeSignal = sigset_t()
                    sigemptyset(&pipeSignal)
                    sigaddset(&pipeSignal, SIGPIPE)
                    // Blocked on this thread alone: a write to a pipe nobody reads fails with EPIPE, and the signal stays
                    // pending on this thread until it ends.
                    pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                    try? writer.write(contentsOf: input)
                    try? writer.close()
                }
            }
            let errors = child.standardError.map(PipeDrain.init)
            let output = child.standardOutput?.readDataToEndOfFile() ?? Data()
            let termination = child.waitUntilExit()
            return ProgramOutput(
                termination: termination, standardOutput: output, standardError: errors?.wait() ?? Data())
        }

        /// ``runToEnd(_:_:environment:workingDirectory:input:error:)`` on a thread of its own.
        package static func run(
            _ path: String, _ arguments: [String] = [], environment: [String: String]? = nil,
            workingDirectory: String? = nil, input: Data? = nil, error: ChildStream = .null
        ) async throws(ChildProcessError) -> ProgramOutput {
            let result = await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(
                        returning: Result { () throws(ChildProcessError) in
                            try runToEnd(
                                path, arguments, environment: environment, workingDirectory: workingDirectory,
                                input: input, error: error)
                        })
                }
            }
            return try result.get()
        }
    }

    /// Reads a pipe to its end on a thread of its own, so two pipes of one child never block each other.
    private final class PipeDrain: @unchecked Sendable {
        // Invariant: `data` is written once, by the reading thread, before `done` is signalled, and read only after
        // `wait()`.
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }
#endif
