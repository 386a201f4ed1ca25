import Foundation
import MSAL

/// Where and how a ``PostgresTokenCacheStore`` connects, read from a libpq-style URL:
///
///     postgres://user:password@db.example.com:5432/database?sslrootcert=system
///     postgresql://user@db.internal/database?sslmode=verify-full&sslrootcert=/etc/ssl/private-ca.pem
///     postgres://user:password@/database?host=/var/run/postgresql        (a Unix socket in that folder)
///
/// The scheme is `postgres` or `postgresql`; the user name, password and database are percent-decoded. The query
/// may name `host` (a folder starting with `/` for a Unix socket, as libpq), `port`, `user`, `password`, `dbname`,
/// `sslmode` (``PostgresSSLMode``: `prefer` when absent, `verify-full` with `sslrootcert=system`), `sslrootcert`
/// (a PEM file of the certificate authorities to check the server's certificate against, or `system` for the
/// system's trusted roots) and `application_name`; any other parameter is refused, so a misspelt `sslmode` cannot
/// silently turn TLS off. As libpq 16, `sslrootcert=system` with any `sslmode` but `verify-full` is refused; so is
/// `verify-ca` without `sslrootcert`, which would otherwise check nothing a server could not fake.
///
/// The password never appears in ``description``, in a mirror or in an error.
public struct PostgresConnectionURL: Sendable, CustomStringConvertible, CustomReflectable {
    /// A server's address: a TCP host and port, or a Unix-domain socket.
    public enum Endpoint: Sendable, Equatable {
        /// A host name or IP address, and a port.
        case tcp(host: String, port: Int)
        /// The path of the socket file (`<folder>/.s.PGSQL.<port>`).
        case unixSocket(path: String)
    }

    /// Where the server listens.
    public let endpoint: Endpoint
    /// The role to connect as.
    public let username: String
    /// The database; `nil` connects to the one named as the user.
    public let database: String?
    /// Whether and how connections are encrypted (only over TCP: a Unix socket is never encrypted).
    public let sslMode: PostgresSSLMode
    /// libpq's `sslrootcert`: a PEM file of the certificate authorities to check the server's certificate against,
    /// or `system` for the system's trusted roots.
    public let sslRootCertificatePath: String?
    /// The `application_name` the server shows in `pg_stat_activity`.
    public let applicationName: String?
    /// The password, redacted whenever printed.
    let password: RedactedPassword?

    /// Reads a `postgres://` or `postgresql://` URL.
    ///
    /// - Throws: ``MSAL/MSALError`` `invalidParameter` saying what is wrong (never quoting the URL, which may hold a
    ///   password).
    public init(_ string: String) throws {
        var rest = Substring(string)
        guard let schemeEnd = rest.range(of: "://"),
            ["postgres", "postgresql"].contains(rest[..<schemeEnd.lowerBound].lowercased())
        else { throw Self.invalid("it must start with postgres:// or postgresql://") }
        rest = rest[schemeEnd.upperBound...]

        var parameters: [String: String] = [:]
        if let questionMark = rest.firstIndex(of: "?") {
            parameters = try Self.parameters(rest[rest.index(after: questionMark)...])
            rest = rest[..<questionMark]
        }
        var path = Substring("")
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }

        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], "user name")
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], "password")
            } else {
                user = try Self.decode(userInfo, "user name")
            }
        }
        var (host, port) = try Self.hostAndPort(rest)

        if let value = parameters.removeValue(forKey: "host") { host = value }
        if let value = parameters.removeValue(forKey: "port") { port = try Self.port(value) }
        if let value = parameters.removeValue(forKey: "user") { user = value }
        if let value = parameters.removeValue(forKey: "password") { password = value }
        var database = path.isEmpty ? nil : try Self.decode(path, "database name")
        if let value = parameters.removeValue(forKey: "dbname") { database = value }
        let sslMode = try parameters.removeValue(forKey: "sslmode").map { value in
            guard let mode = PostgresSSLMode(rawValue: value) else {
                throw Self.invalid(
                    "sslmode must be one of \(PostgresSSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return mode
        }
        sslRootCertificatePath = parameters.removeValue(forKey: "sslrootcert")
        self.sslMode = try Self.checked(sslMode, rootCertificates: sslRootCertificatePath)
        applicationName = parameters.removeValue(forKey: "application_name")
        if let unknown = parameters.keys.sorted().first {
            throw Self.invalid("it names the parameter '\(unknown)', which the store does not know")
        }

        guard let user, !user.isEmpty else { throw Self.invalid("it names no user") }
        let host1 = host ?? ""
        if host1.hasPrefix("/") {
            endpoint = .unixSocket(path: "\(host1.hasSuffix("/") ? String(host1.dropLast()) : host1)/.s.PGSQL.\(port)")
        } else {
            endpoint = .tcp(host: host1.isEmpty ? "localhost" : host1, port: port)
        }
        self.username = user
        self.password = password.map(RedactedPassword.init)
        self.database = database.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the URL's `sslrootcert` names the system's trusted roots rather than a file.
    var trustsSystemRoots: Bool { sslRootCertificatePath == Self.systemRoots }

    private static let systemRoots = "system"

    /// The mode, `prefer` when the URL names none (`verify-full` with `sslrootcert=system`), once the URL's
    /// `sslrootcert` is known to give it something to check against.
    private static func checked(_ mode: PostgresSSLMode?, rootCertificates: String?) throws -> PostgresSSLMode {
        if rootCertificates == systemRoots {
            guard mode == nil || mode == .verifyFull else {
                throw invalid(
                    "sslrootcert=system needs sslmode=verify-full, not \(mode!.rawValue): the system's roots vouch for "
                        + "every public host name, so only a host name check authenticates the server with them")
            }
            return .verifyFull
        }
        if mode == .verifyCA, rootCertificates == nil {
            throw invalid(
                "sslmode=verify-ca needs sslrootcert, a PEM file of the certificate authorities to check the server "
                    + "against (for the system's trusted roots, use sslmode=verify-full&sslrootcert=system)")
        }
        return mode ?? .prefer
    }

    /// The URL with `***` for the password: `postgres://user:***@host:5432/database?sslmode=require`.
    public var description: String {
        var text = "postgres://\(username)\(password == nil ? "" : ":***")@"
        var query: [String] = []
        switch endpoint {
        case .tcp(let host, let port):
            text += host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unixSocket(let path):
            // Back to libpq's form: the socket's folder, and the port its name ends with.
            let folder = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            query.append("host=\(folder.isEmpty ? "/" : folder)")
            if name.hasPrefix(".s.PGSQL."), name != ".s.PGSQL.5432" { query.append("port=\(name.dropFirst(9))") }
        }
        text += "/\(database ?? "")"
        if case .tcp = endpoint { query.append("sslmode=\(sslMode.rawValue)") }
        if let sslRootCertificatePath { query.append("sslrootcert=\(sslRootCertificatePath)") }
        return query.isEmpty ? text : text + "?" + query.joined(separator: "&")
    }

    /// The fields, with the password as `***`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoint": endpoint, "username": username, "password": password as Any, "database": database as Any,
                "sslMode": sslMode,
            ],
            displayStyle: .struct)
    }

    private static func invalid(_ reason: String) -> MSALError {
        MSALError.internal(.invalidParameter, "The PostgreSQL URL is not valid: \(reason).")
    }

    private static func decode(_ text: Substring, _ what: String) throws -> String {
        guard let decoded = String(text).removingPercentEncoding else {
            throw invalid("its \(what) is not percent-encoded correctly")
        }
        return decoded
    }

    private static func port(_ text: some StringProtocol) throws -> Int {
        guard let port = Int(text), (1...65_535).contains(port) else {
            throw invalid("its port is not a number from 1 to 65535")
        }
        return port
    }

    /// `host`, `host:port`, `[v6]`, `[v6]:port` or nothing; a percent-encoded `/folder` is a socket folder.
    private static func hostAndPort(_ text: Substring) throws -> (host: String?, port: Int) {
        if text.isEmpty { return (nil, 5432) }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw invalid("its IPv6 address lacks its ']'") }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw invalid("its host is not valid") }
            return (host, after.isEmpty ? 5432 : try port(after.dropFirst()))
        }
        if let colon = text.lastIndex(of: ":") {
            return (try decode(text[..<colon], "host"), try port(text[text.index(after: colon)...]))
        }
        return (try decode(text, "host"), 5432)
    }

    private static func parameters(_ query: Substring) throws -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try decode(parts[0], "query")
            parameters[name] = parts.count > 1 ? try decode(parts[1], "query") : ""
        }
        return parameters
    }
}
