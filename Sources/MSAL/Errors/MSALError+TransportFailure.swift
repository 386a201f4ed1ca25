extension MSALError {
    /// Why a request got no answer, when the transport can tell (``MSALError/transportFailure``): enough for an
    /// app to say what to do next (start the server, trust its CA, use the other scheme).
    public struct TransportFailure: Sendable, Hashable {
        /// What kept the request from its answer.
        public enum Reason: Sendable, Hashable {
            /// Nothing listens at the host and port: the connection was refused.
            case connectionRefused
            /// The host's name does not resolve.
            case hostNotFound
            /// The server's certificate is not trusted: no trusted CA issued it, or it names another host.
            case untrustedCertificate
            /// The TLS handshake failed for another reason than the certificate, e.g. the server speaks plain
            /// http.
            case handshakeFailed
            /// The server closed the connection before answering, e.g. an https server asked in plain http.
            case connectionClosed
        }

        /// What kept the request from its answer.
        public let reason: Reason
        /// The server's host, from the request's URL.
        public let host: String
        /// The server's port, when the request's URL names one.
        public let port: Int?

        /// A failure to reach `host` (and `port`, when the URL names one).
        public init(_ reason: Reason, host: String, port: Int?) {
            self.reason = reason
            self.host = host
            self.port = port
        }

        /// Whether the host is this machine (`localhost`, 127.0.0.0/8, `::1`), as a local emulator is.
        public var isLoopback: Bool { isLoopbackHost(host.lowercased()) }

        /// `host:port`, or the host alone when the URL names no port.
        public var hostAndPort: String { host + (port.map { ":\($0)" } ?? "") }
    }
}
