import Foundation

/// Runs a program to its end and returns its exit status and what it printed on standard output.
enum ProcessOutput {
    /// - Parameters:
    ///   - environment: the program's environment; this process's when `nil`.
    ///   - input: a file read on standard input; this process's when `nil`.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, input: URL? = nil
    ) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
