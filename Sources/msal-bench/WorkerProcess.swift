import ChildProcesses
import Foundation

/// A child process spoken to by lines on its standard input and output.
final class WorkerProcess {
    private let process: ChildProcess
    private let lines: UnsafeMutablePointer<FILE>

    init(executable: String, arguments: [String], environment: [String: String]) throws {
        process = try ChildProcess(
            executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            input: .pipe, output: .pipe, error: .inherit)
        guard let lines = fdopen(dup(process.standardOutput!.fileDescriptor), "r") else {
            throw BenchError("cannot read \(executable)'s output")
        }
        self.lines = lines
    }

    /// The next line it printed, without its newline; `nil` once it has stopped.
    func readLine() -> String? {
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        guard getline(&line, &capacity, lines) > 0, let line else { return nil }
        return String(cString: line).trimmingCharacters(in: .newlines)
    }

    func write(_ text: String) { try? process.standardInput!.write(contentsOf: Data(text.utf8)) }

    /// Closes its input and waits for it to end.
    func finish() {
        try? process.standardInput!.close()
        process.waitUntilExit()
        fclose(lines)
    }
}
