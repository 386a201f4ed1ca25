import ChildProcesses
import Foundation

/// A tinyproxy (Debian's `tinyproxy`, installed by `scripts/test`) of a test's own: a temporary folder, a free
/// loopback port, `CONNECT` to any port, optionally Basic authentication, and a log the test reads to see which
/// hosts went through it.
package final class Tinyproxy: Sendable {
    static let executable = "/usr/bin/tinyproxy"

    package let port: Int
    private let folder: URL
    private let process: ChildProcess

    private init(port: Int, folder: URL, process: ChildProcess) {
        self.port = port
        self.folder = folder
        self.process = process
    }

    /// The proxy's URL, with `credentials` in it when given.
    package func url(credentials: (user: String, password: String)? = nil) -> URL {
        URL(string: "http://\(credentials.map { "\($0.user):\($0.password)@" } ?? "")127.0.0.1:\(port)")!
    }

    /// Every request the proxy was asked for, in order (authenticated or not), as its method and target:
    /// `CONNECT host:port` (async-http-client tunnels plain HTTP too), or `GET http://host:port/path` from a
    /// client that sends plain-HTTP requests to the proxy as they are.
    package func requests() throws -> [String] {
        let log = try String(contentsOf: folder.appendingPathComponent("tinyproxy.log"), encoding: .utf8)
        return log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "]: Request (file descriptor "),
                let start = line[range.upperBound...].range(of: "): ")
            else { return nil }
            let words = line[start.upperBound...].split(separator: " ")
            return words.count >= 2 ? "\(words[0]) \(words[1])" : nil
        }
    }

    /// The `host:port` of every `CONNECT` the proxy was asked for, in order (authenticated or not).
    package func connectTargets() throws -> [String] {
        try requests().compactMap { $0.hasPrefix("CONNECT ") ? String($0.dropFirst("CONNECT ".count)) : nil }
    }

    /// Runs `body` with a proxy on loopback, requiring `basicAuth` when given, and stops it afterwards.
    package static func with<T>(
        basicAuth: (user: String, password: String)? = nil, _ body: (Tinyproxy) async throws -> T
    ) async throws -> T {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw ProxyServerError("\(executable) is missing: run scripts/test once, or `apt-get install -y tinyproxy`")
        }
        let proxy = try await start(basicAuth: basicAuth)
        do {
            let result = try await body(proxy)
            proxy.stop()
            return result
        } catch {
            proxy.stop()
            throw error
        }
    }

    private static func start(basicAuth: (user: String, password: String)?) async throws -> Tinyproxy {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tinyproxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            var lines = [
                "Port \(port)", "Listen 127.0.0.1", "Timeout 30", "MaxClients 200", "LogLevel Connect",
                "LogFile \"\(folder.appendingPathComponent("tinyproxy.log").path)\"",
            ]
            if let basicAuth { lines.append("BasicAuth \(basicAuth.user) \(basicAuth.password)") }
            let configuration = folder.appendingPathComponent("tinyproxy.conf")
            try (lines.joined(separator: "\n") + "\n").write(to: configuration, atomically: true, encoding: .utf8)
            let process = try ChildProcess(executable, ["-d", "-c", configuration.path])
            if try await LoopbackPort.awaitListener(on: port, while: { process.isRunning }) {
                return Tinyproxy(port: port, folder: folder, process: process)
            }
            // Another process took the port first: try another.
            Self.kill(process)
        }
        try? FileManager.default.removeItem(at: folder)
        throw ProxyServerError("tinyproxy did not start on a free loopback port")
    }

    private func stop() {
        Self.kill(process)
        try? FileManager.default.removeItem(at: folder)
    }

    /// SIGKILL: on SIGTERM tinyproxy waits for its clients to hang up, and a client's pooled keep-alive tunnels
    /// stay open for as long as the client lives.
    private static func kill(_ process: ChildProcess) {
        process.send(SIGKILL)
        process.waitUntilExit()
    }
}

/// Why the proxy could not be started.
package struct ProxyServerError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
