import ChildProcesses
import Foundation
import Locking

/// What a finished command printed and how it exited.
struct CLIResult: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// The products of this build, found beside the test bundle.
enum Binaries {
    static func url(_ name: String) -> URL {
        DemoCommandTests.binary.deletingLastPathComponent().appendingPathComponent(name)
    }
}

/// A command started from a test: standard error is streamed (to wait for a prompt), standard
/// output collected (or the other way round, for `script`, whose terminal output is its standard
/// output). Blocking calls run on their own threads, never on the cooperative pool.
final class CLIProcess: Sendable {
    private let process: ChildProcess
    private let collectedFile: URL
    private let streamsStdout: Bool
    /// The streamed bytes so far, decoded as a whole when read: a character may span two reads.
    private let streamedBytes = Locked(Data())
    private let streamedChunks: AsyncStream<Void>

    /// - Parameter takingInput: connect standard input to ``send(_:)`` instead of `/dev/null`.
    init(
        _ binary: URL, _ arguments: [String], environment: [String: String], streamingStdout: Bool = false,
        takingInput: Bool = false
    ) throws {
        streamsStdout = streamingStdout
        collectedFile = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString).out")
        process = try ChildProcess(
            binary.path, arguments, environment: environment, input: takingInput ? .pipe : .null,
            output: streamingStdout ? .pipe : .file(collectedFile.path),
            error: streamingStdout ? .file(collectedFile.path) : .pipe)
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        streamedChunks = stream
        let reader = (streamingStdout ? process.standardOutput : process.standardError)!
        Thread { [self] in
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                streamedBytes.withLock { $0.append(chunk) }
                continuation.yield()
            }
            continuation.finish()
        }.start()
    }

    /// Runs a command to its end.
    static func run(_ binary: URL, _ arguments: [String], environment: [String: String]) async throws -> CLIResult {
        try await CLIProcess(binary, arguments, environment: environment).finish()
    }

    private var streamedText: String { String(decoding: streamedBytes.withLock { $0 }, as: UTF8.self) }

    /// Waits until the streamed output shows something `extract` recognises, and returns what it found.
    ///
    /// - Throws: when the command ends first.
    func waitForOutput<T: Sendable>(_ extract: (String) -> T?) async throws -> T {
        if let found = extract(streamedText) { return found }
        for await _ in streamedChunks {
            if let found = extract(streamedText) { return found }
        }
        if let found = extract(streamedText) { return found }
        throw CLITestFailure(
            "the command ended before printing what the test waits for:\n\(streamedText)")
    }

    /// Types a line into the command's standard input.
    func send(_ line: String) { try? process.standardInput?.write(contentsOf: Data((line + "\n").utf8)) }

    /// Ends the command's standard input, as the end of a piped file does.
    func endInput() { try? process.standardInput?.close() }

    func interrupt() { process.send(SIGINT) }

    /// Stops a helper that ignores SIGINT and SIGTERM (chromedriver does).
    func kill() { process.send(SIGKILL) }

    /// Waits for the exit and returns everything printed.
    func finish() async throws -> CLIResult {
        let status = try await process.exit().shellStatus
        for await _ in streamedChunks {}
        let collected = (try? String(contentsOf: collectedFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: collectedFile)
        let streamed = streamedText
        return CLIResult(
            status: status, stdout: streamsStdout ? streamed : collected,
            stderr: streamsStdout ? collected : streamed)
    }
}

struct CLITestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
