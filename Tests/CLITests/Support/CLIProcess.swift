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
    private let process: Process
    private let collectedFile: URL
    private let streamsStdout: Bool
    /// The streamed bytes so far, decoded as a whole when read: a character may span two reads.
    private let streamedBytes = Locked(Data())
    private let streamedChunks: AsyncStream<Void>
    private let exited: AsyncStream<Int32>
    private let input: FileHandle?

    /// - Parameter takingInput: connect standard input to ``send(_:)`` instead of `/dev/null`.
    init(
        _ binary: URL, _ arguments: [String], environment: [String: String], streamingStdout: Bool = false,
        takingInput: Bool = false
    ) throws {
        process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        streamsStdout = streamingStdout
        collectedFile = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: collectedFile.path, contents: nil)
        let collected = try FileHandle(forWritingTo: collectedFile)
        let pipe = Pipe()
        process.standardOutput = streamingStdout ? pipe : collected
        process.standardError = streamingStdout ? collected : pipe
        if takingInput {
            let inputPipe = Pipe()
            process.standardInput = inputPipe
            input = inputPipe.fileHandleForWriting
        } else {
            process.standardInput = FileHandle.nullDevice
            input = nil
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        streamedChunks = stream
        let (exits, exit) = AsyncStream.makeStream(of: Int32.self)
        exited = exits
        process.terminationHandler = { process in
            exit.yield(process.terminationStatus)
            exit.finish()
        }
        try process.run()
        Thread { [self] in
            let reader = pipe.fileHandleForReading
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
    func send(_ line: String) { input?.write(Data((line + "\n").utf8)) }

    /// Ends the command's standard input, as the end of a piped file does.
    func endInput() { try? input?.close() }

    func interrupt() { Foundation.kill(process.processIdentifier, SIGINT) }

    /// Stops a helper that ignores SIGINT and SIGTERM (chromedriver does).
    func kill() { Foundation.kill(process.processIdentifier, SIGKILL) }

    /// Waits for the exit and returns everything printed.
    func finish() async throws -> CLIResult {
        var status: Int32 = -1
        for await code in exited { status = code }
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
