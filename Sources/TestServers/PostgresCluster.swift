import ChildProcesses
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A throwaway PostgreSQL cluster: `initdb` into a temporary folder, `postgres` listening on a Unix socket in that
/// folder and on a free loopback port (with TLS when `openssl` is there: a certificate for `localhost` from a
/// certificate authority of the cluster's own), a password-protected role and a database. ``with(_:)`` removes it
/// all afterwards, also when the body throws.
///
/// Run as root, the server's commands run as the `postgres` user (`runuser`, or `su`), since `initdb` and `postgres`
/// refuse root; the folder is handed to that user.
package final class PostgresCluster: Sendable {
    /// The folder holding everything: `data/`, the socket, the password file, the server's log.
    package let root: URL
    package let port: Int
    package let user = "msal_test"
    /// Random, so that a test can look for it in what the store prints.
    package let password = "pw-\(UUID().uuidString.prefix(8).lowercased())-secret"
    package let database = "msal"
    /// Whether the server serves TLS (and refuses TCP connections without it); its certificate is ``certificatePath``,
    /// issued by the authority of ``certificateAuthorityPath``.
    package let tls: Bool
    private let binaries: URL
    /// The user the server runs as when the tests run as root.
    private let serverUser: String?

    package var dataDirectory: URL { root.appendingPathComponent("data") }
    /// The server's certificate (PEM). It names `localhost` only, so that a connection to 127.0.0.1 meets a
    /// certificate for another host name.
    package var certificatePath: String { dataDirectory.appendingPathComponent("server.crt").path }
    /// The certificate authority that issued the server's certificate (PEM), for `sslrootcert`.
    package var certificateAuthorityPath: String { root.appendingPathComponent("ca.crt").path }

    /// Connects through the Unix socket.
    package var socketURL: String { "postgres://\(user):\(password)@/\(database)?host=\(root.path)&port=\(port)" }

    /// Connects over TCP to `host` (127.0.0.1 unless told; the server listens there only), with `query` appended
    /// (`sslmode=…`).
    package func tcpURL(_ query: String, host: String = "127.0.0.1") -> String {
        "postgres://\(user):\(password)@\(host):\(port)/\(database)?\(query)"
    }

    /// Makes and starts a cluster, runs `body` with it, then stops it (`pg_ctl stop -m immediate`) and deletes it.
    ///
    /// - Parameter maximumConnections: the server's `max_connections`: roomy, since a suite's tests run at once, each
    ///   with pools of its own, and a server refusing connections ("too many clients") would turn a lock wait or an
    ///   operation into a timeout the test did not ask for.
    package static func with<T>(maximumConnections: Int = 200, _ body: (PostgresCluster) async throws -> T)
        async throws -> T
    {
        let cluster = try PostgresCluster(maximumConnections: maximumConnections)
        do {
            try await cluster.create()
            let result = try await body(cluster)
            await cluster.destroy()
            return result
        } catch {
            await cluster.destroy()
            throw error
        }
    }

    private let maximumConnections: Int

    private init(maximumConnections: Int) throws {
        self.maximumConnections = maximumConnections
        binaries = try Self.findBinaries()
        serverUser = getuid() == 0 ? (Self.account("postgres") != nil ? "postgres" : "nobody") : nil
        tls = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
        root = URL(fileURLWithPath: "/tmp/msal-pg-\(UUID().uuidString.prefix(8).lowercased())")
        port = try LoopbackPort.free()
    }

    /// The folder of `initdb`, `pg_ctl` and `postgres`: `pg_config --bindir`, else the newest
    /// `/usr/lib/postgresql/*/bin`, else `initdb` on the `PATH` (its link resolved).
    private static func findBinaries() throws -> URL {
        var candidates: [URL] = []
        if let bindir = try? runSync("/usr/bin/env", ["pg_config", "--bindir"]) {
            candidates.append(URL(fileURLWithPath: bindir.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            candidates.append(URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin"))
        }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in path + ["/usr/local/bin"] {
            let initdb = URL(fileURLWithPath: folder).appendingPathComponent("initdb")
            if FileManager.default.isExecutableFile(atPath: initdb.path) {
                candidates.append(initdb.resolvingSymlinksInPath().deletingLastPathComponent())
            }
        }
        guard
            let found = candidates.first(where: { folder in
                ["initdb", "pg_ctl", "postgres"].allSatisfy {
                    FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent($0).path)
                }
            })
        else {
            throw ClusterError(
                "PostgreSQL's server binaries (initdb, pg_ctl, postgres) were not found; scripts/test installs them")
        }
        return found
    }

    /// initdb, the configuration, the certificate, start, the database.
    private func create() async throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        let passwordFile = root.appendingPathComponent("password")
        try Data(password.utf8).write(to: passwordFile)
        try handOver(root)
        try handOver(passwordFile)
        try await runServerCommand(
            "initdb",
            [
                "-D", dataDirectory.path, "-U", user, "--pwfile=\(passwordFile.path)", "--auth=scram-sha-256",
                "--no-sync", "--no-instructions", "-E", "UTF8", "--locale=C",
            ])
        var settings = [
            "listen_addresses = '127.0.0.1'", "port = \(port)", "unix_socket_directories = '\(root.path)'",
            "fsync = off", "synchronous_commit = off", "full_page_writes = off",
            "max_connections = \(maximumConnections)",
            "shared_buffers = 16MB",
        ]
        // TCP only with TLS, so that a connection the store says is TLS cannot have been a plain one.
        var hba = ["local all all scram-sha-256", "hostssl all all 127.0.0.1/32 scram-sha-256"]
        if tls {
            try await makeCertificate()
            settings += ["ssl = on", "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'"]
        } else {
            hba = ["local all all scram-sha-256", "host all all 127.0.0.1/32 scram-sha-256"]
        }
        try append(settings, to: "postgresql.conf")
        try (hba.joined(separator: "\n") + "\n").write(
            to: dataDirectory.appendingPathComponent("pg_hba.conf"), atomically: false, encoding: .utf8)
        try await start()
        try await Self.run(
            binaries.appendingPathComponent("createdb").path,
            ["-h", root.path, "-p", "\(port)", "-U", user, database], environment: ["PGPASSWORD": password])
    }

    /// Starts the server and waits (`pg_ctl -w`, which polls until it accepts connections, at most 60 s).
    package func start() async throws {
        try await runServerCommand(
            "pg_ctl",
            ["start", "-D", dataDirectory.path, "-l", root.appendingPathComponent("server.log").path, "-w", "-t", "60"])
    }

    /// Stops the server: `fast` ends sessions cleanly, `immediate` kills it.
    package func stop(mode: String = "fast") async throws {
        try await runServerCommand("pg_ctl", ["stop", "-D", dataDirectory.path, "-m", mode, "-w", "-t", "60"])
    }

    /// Stops the server if it runs and deletes the folder.
    private func destroy() async {
        if FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("postmaster.pid").path) {
            try? await stop(mode: "immediate")
        }
        try? FileManager.default.removeItem(at: root)
    }

    /// The authority (its key stays in ``root``, away from the server) and the server's certificate for
    /// `localhost` (``LoopbackCertificate``).
    private func makeCertificate() async throws {
        let key = dataDirectory.appendingPathComponent("server.key")
        try await LoopbackCertificate.make(
            names: ["DNS:localhost"], authority: certificateAuthorityPath, certificate: certificatePath, key: key.path,
            scratch: root)
        try handOver(key)
        try handOver(URL(fileURLWithPath: certificatePath))
    }

    private func append(_ lines: [String], to file: String) throws {
        let url = dataDirectory.appendingPathComponent(file)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(("\n" + lines.joined(separator: "\n") + "\n").utf8))
    }

    /// Gives a file or folder to the server's user, when the tests run as root.
    private func handOver(_ url: URL) throws {
        guard let serverUser, let account = Self.account(serverUser) else { return }
        guard chown(url.path, account.uid, account.gid) == 0 else {
            throw ClusterError("chown \(url.path) to \(serverUser) failed")
        }
    }

    /// The user's ids, read with the reentrant `getpwnam_r`: `getpwnam`'s result is shared by the whole process, and
    /// another thread's lookup (Foundation's own, for a home folder) can overwrite it before it is read, and the
    /// cluster's folder would then go to another user than the server's (initdb once could not write in it).
    private static func account(_ name: String) -> (uid: uid_t, gid: gid_t)? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return (entry.pw_uid, entry.pw_gid)
    }

    /// Runs one of the server's binaries, as the server's user when the tests run as root.
    private func runServerCommand(_ name: String, _ arguments: [String]) async throws {
        let path = binaries.appendingPathComponent(name).path
        guard let serverUser else { return try await Self.run(path, arguments) }
        if FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") {
            try await Self.run("/usr/sbin/runuser", ["-u", serverUser, "--", path] + arguments)
        } else {
            let command = ([path] + arguments).map { "'\($0.replacingOccurrences(of: "'", with: "'\\''"))'" }
            try await Self.run("/bin/su", [serverUser, "-s", "/bin/sh", "-c", command.joined(separator: " ")])
        }
    }

    /// Runs a program to its end (``SpawnedProgram``).
    private static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) async throws {
        try await SpawnedProgram.run(path, arguments, environment: environment)
    }

    /// Runs a quick program and returns its standard output (for `pg_config`).
    private static func runSync(_ path: String, _ arguments: [String]) throws -> String {
        let result = try ChildProcess.runToEnd(path, arguments)
        guard result.termination.succeeded else { throw ClusterError("\(path) \(result.termination)") }
        return result.text
    }
}

/// Why the cluster could not be made or run.
package struct ClusterError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
