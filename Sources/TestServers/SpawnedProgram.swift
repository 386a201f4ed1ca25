import ChildProcesses
import Foundation

/// Runs a program to its end for a test server's set-up (`initdb`, `pg_ctl`, `openssl`) and throws with its output
/// when it fails.
///
/// Its output goes to a file, not a pipe: a server that the program leaves running (`pg_ctl start`) keeps the
/// program's standard output, and a pipe's reader would wait for the server to end.
package enum SpawnedProgram {
    /// Runs `path` with `arguments`, the process's environment with `environment` over it.
    ///
    /// - Throws: ``ChildProcessError`` with the program's output when it cannot start or does not exit with 0.
    package static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("spawned-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let program = try ChildProcess(
            path, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            output: .file(output.path), error: .standardOutput)
        let termination = try await program.exit()
        guard termination.succeeded else {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw ChildProcessError("\(([path] + arguments).joined(separator: " ")) \(termination): \(text)")
        }
    }
}
