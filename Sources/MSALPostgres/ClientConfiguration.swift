import MSAL
import NIOSSL
import PostgresNIO

extension PostgresClient.Configuration {
    /// The pool's configuration for `url`: its endpoint and credentials, TLS as its `sslmode` asks, connections made
    /// within `timeout`, and `statement_timeout` set to it so that the server, too, gives up on a statement the store
    /// has stopped waiting for.
    ///
    /// Idle connections get no keep-alive queries: the pool would otherwise move each connection's keep-alive timer
    /// on every release, a cost of about 20 µs per operation on loopback. A connection the server has closed is
    /// dropped by the pool when its socket closes; one broken silently fails its next operation within the timeout,
    /// and the operation after it connects anew.
    ///
    /// - Throws: `invalidParameter` when `sslrootcert` names no readable PEM file of certificates.
    init(url: PostgresConnectionURL, timeout: Duration, maximumConnections: Int) throws {
        switch url.endpoint {
        case .tcp(let host, let port):
            self.init(
                host: host, port: port, username: url.username, password: url.password?.value, database: url.database,
                tls: try Self.tls(url))
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

    private static func tls(_ url: PostgresConnectionURL) throws -> TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch url.sslMode {
        case .disable:
            return .disable
        case .allow, .prefer:
            configuration.certificateVerification = .none
            return .prefer(configuration)
        case .require, .verifyCA, .verifyFull:
            configuration.certificateVerification =
                url.sslMode == .verifyFull ? .fullVerification : .noHostnameVerification
            if let path = url.sslRootCertificatePath {
                do {
                    configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
                } catch {
                    throw MSALError.internal(
                        .invalidParameter,
                        "The PostgreSQL URL's sslrootcert \(path) is not a readable PEM file of certificates.")
                }
            }
            return .require(configuration)
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds (at least 1).
    var milliseconds: Int64 {
        max(1, components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
