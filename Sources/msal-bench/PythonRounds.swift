import Foundation

/// A Python anchor script kept running beside a benchmark, one round per request (`SCRIPT ARGS --paired`):
/// each of our rounds is followed by one of MSAL Python's, so the two are measured under the same conditions.
final class PythonRounds {
    private let worker: WorkerProcess
    private let script: String

    /// Starts `script` with `$MSAL_PYTHON`, else `.build-python/bin/python`.
    ///
    /// - Throws: when Python cannot be started.
    init(script: String, arguments: [String]) throws {
        // A script that dies (MSAL Python missing from that interpreter) must make the next request fail,
        // not end this process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        worker = try WorkerProcess(
            executable: PythonAnchor.interpreter, arguments: [script] + arguments + ["--paired"], environment: [:])
        self.script = script
    }

    /// Runs one round and returns its figures (the JSON line the script prints).
    ///
    /// - Throws: when the script has stopped or answers something else.
    func next() throws -> [String: Double] {
        worker.write("round\n")
        guard let line = worker.readLine(),
            let figures = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Double]
        else { throw BenchError("\(script) stopped answering") }
        return figures
    }

    /// Ends the script (its input closes) and waits for it.
    func finish() { worker.finish() }
}
