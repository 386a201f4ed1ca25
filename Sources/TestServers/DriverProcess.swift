import ChildProcesses
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test failure in starting or driving the browser.
package struct BrowserFailure: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}

/// chromedriver, started with its standard output read line by line until it says which port it took.
final class DriverProcess: Sendable {
    private let process: ChildProcess
    private let lines: AsyncStream<String>

    init(_ path: String, _ arguments: [String]) throws {
        process = try ChildProcess(path, arguments, output: .pipe)
        lines = PipeLines.lines(of: process.standardOutput!)
    }

    /// The port chromedriver reports ("… started successfully on port N"), or the line that says why it did not
    /// start ("IPv4 port not available", for example).
    ///
    /// - Throws: ``BrowserFailure`` when it stops or says something else first.
    func port() async throws -> String {
        var said: [String] = []
        for await line in lines {
            if let range = line.range(of: "started successfully on port ") {
                return String(line[range.upperBound...].prefix(while: \.isNumber))
            }
            said.append(line)
            if line.contains("not available") { break }
        }
        throw BrowserFailure("chromedriver did not start: \(said.joined(separator: " / "))")
    }

    /// Ends chromedriver at once (it outlives SIGTERM while its browser session winds down).
    func kill() { process.send(SIGKILL) }

    func finish() { process.waitUntilExit() }
}
