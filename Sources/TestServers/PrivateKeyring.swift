#if os(Linux)
    import ChildProcesses
    import Foundation

    /// A session bus of its own with an unlocked GNOME Keyring (Debian's `dbus-daemon` and `gnome-keyring`,
    /// installed by `scripts/test`), so Secret Service tests never touch the user's keyring.
    package final class PrivateKeyring: Sendable {
        /// The environment that reaches this keyring: `HOME`, `XDG_RUNTIME_DIR`, `PATH`, `DBUS_SESSION_BUS_ADDRESS`.
        package let environment: [String: String]
        private let bus: ChildProcess
        private let home: URL

        private init(environment: [String: String], bus: ChildProcess, home: URL) {
            self.environment = environment
            self.bus = bus
            self.home = home
        }

        /// Runs `body` with a keyring of its own, and stops it afterwards.
        package static func with<T: Sendable>(_ body: (PrivateKeyring) async throws -> T) async throws -> T {
            let keyring = try await start()
            defer { keyring.stop() }
            return try await body(keyring)
        }

        private static func start() async throws -> PrivateKeyring {
            for tool in ["/usr/bin/dbus-daemon", "/usr/bin/gnome-keyring-daemon", "/usr/bin/secret-tool"]
            where !FileManager.default.isExecutableFile(atPath: tool) {
                throw KeyringFailure(
                    "\(tool) is missing: run scripts/test once, or `apt-get install -y dbus-daemon gnome-keyring libsecret-tools`"
                )
            }
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("keyring-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return try await withCheckedThrowingContinuation { continuation in
                Thread {
                    continuation.resume(
                        with: Result {
                            var environment = [
                                "HOME": home.path, "XDG_RUNTIME_DIR": home.path, "PATH": "/usr/bin:/bin",
                            ]
                            let (bus, address) = try launch(
                                "/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"],
                                environment: environment)
                            environment["DBUS_SESSION_BUS_ADDRESS"] = address
                            // It forks once the keyring is unlocked and serving (the parent then exits) and ends with
                            // the bus; it reads the password from its standard input.
                            let keyring = try ChildProcess(
                                "/usr/bin/gnome-keyring-daemon", ["--daemonize", "--unlock", "--components=secrets"],
                                environment: environment, input: .pipe)
                            try keyring.standardInput!.write(contentsOf: Data("test-keyring-password".utf8))
                            try keyring.standardInput!.close()
                            let ended = keyring.waitUntilExit()
                            guard ended.succeeded else { throw KeyringFailure("gnome-keyring-daemon \(ended)") }
                            return PrivateKeyring(environment: environment, bus: bus, home: home)
                        })
                }.start()
            }
        }

        /// Runs `path` with `input` on its standard input and waits for it to exit.
        /// Starts a daemon and returns it with the first line it prints.
        private static func launch(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (
            ChildProcess, String
        ) {
            let process = try ChildProcess(path, arguments, environment: environment, output: .pipe)
            var line = Data()
            while !line.contains(0x0A) {
                let chunk = process.standardOutput!.availableData
                if chunk.isEmpty { throw KeyringFailure("\(path) exited before it was ready") }
                line.append(chunk)
            }
            return (process, String(decoding: line.prefix { $0 != 0x0A }, as: UTF8.self))
        }

        /// SIGKILL: a test runner may start its children with SIGTERM ignored, and both daemons honour that.
        private func stop() {
            bus.send(SIGKILL)
            // The keyring daemon outlives its bus; it is the process whose HOME is ours.
            let marker = Data("HOME=\(home.path)\0".utf8)
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry), pid != getpid(),
                    let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                    environ.range(of: marker) != nil
                else { continue }
                kill(pid, SIGKILL)
            }
            try? FileManager.default.removeItem(at: home)
        }
    }

    /// Why the keyring could not be started.
    package struct KeyringFailure: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }
#endif
