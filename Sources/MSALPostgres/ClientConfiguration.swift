import Logging
import MSAL
import NIOSSL
import PostgresNIO

extension PostgresClient.Configuration {
    /// The pool's configuration for `url`: its endpoint and credentials, TLS as its `sslmode` asks, connections made
    /// within `timeout`, and `statement_timeout` set to it so that the server, too, gives up on a statement the store
    /// has stopped waiting for.
    ///
    /// Idle connections get no keep-alive queries: the pool would otherwise move each connection's keep-alive timer
    /// on every release, work added to every operation. A connection the server has closed is dropped by the pool
    /// when its socket closes; one broken silently fails its next operation within the timeout, and the operation
    /// after it connects anew.
    ///
    /// A TCP connection to a host other than loopback that would not authenticate the server (``PostgresSSLMode``)
    /// gets a warning on `logger`.
    ///
    /// - Throws: `invalidParameter` when `sslrootcert` names no readable PEM file of certificates.
    init(url: PostgresConnectionURL, timeout: Duration, maximumConnections: Int, logger: Logger) throws {
        switch url.endpoint {
        case .tcp(let host, let port):
            let (tls, authenticatesServer) = try Self.tls(url)
            if !authenticatesServer && !isLoopbackHost(host.lowercased()) {
                let mode = "sslmode=\(url.sslMode.rawValue)\(url.sslMode == .require ? " without sslrootcert" : "")"
                logger.warning(
                    """
                    The token cache's PostgreSQL connections to \(host):\(port) do not authenticate the server \
                    (\(mode)): whoever intercepts them can pose as the server and read the tokens. Use \
                    sslmode=verify-full with sslrootcert=system or the file of the server's certificate authority.
                    """)
            }
            self.init(
                host: host, port: port, username: url.username, password: url.password?.value, database: url.database,
                tls: tls)
        case .unixSocket(let path):
            self.init(
                unixSocketPath: path, username: url.username, password: url.password?.value, database: url.database)
        }
        options.connectTimeout = timeout
        options.maximumConnections = max(1, maximumConnections)
        options.keepAliveBehavior = nil
        options.additionalStartupParameters = [("statement_timeout", "\(timeout.milliseconds)")]
        if let name = url.applicationName { options.additionalStartupParameters.append(("application_name", name)) }
    }

    /// TLS as the URL's `sslmode` and `sslrootcert` ask (``PostgresSSLMode``), and whether it authenticates the
    /// server: checks its certificate against certificate authorities, and only them.
    private static func tls(_ url: PostgresConnectionURL) throws -> (TLS, authenticatesServer: Bool) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        // The URL refuses sslrootcert=system but with verify-full, and verify-ca without sslrootcert.
        let rootFile = url.trustsSystemRoots ? nil : url.sslRootCertificatePath
        switch url.sslMode {
        case .disable:
            return (.disable, false)
        case .allow, .prefer:
            configuration.certificateVerification = .none
            return (.prefer(configuration), false)
        case .require where rootFile == nil:
            configuration.certificateVerification = .none
            return (.require(configuration), false)
        case .require, .verifyCA, .verifyFull:
            configuration.certificateVerification =
                url.sslMode == .verifyFull ? .fullVerification : .noHostnameVerification
            if let rootFile {
                do {
                    configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootFile))
                } catch {
                    throw MSALError.internal(
                        .invalidParameter,
                        "The PostgreSQL URL's sslrootcert \(rootFile) is not a readable PEM file of certificates.",
                        underlyingError: error)
                }
            }
            return (.require(configuration), true)
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds (at least 1).
    var milliseconds: Int64 {
        max(1, components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
