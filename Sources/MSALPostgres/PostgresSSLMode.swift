/// Whether and how a ``PostgresTokenCacheStore`` encrypts its connections: the `sslmode` of its URL, with libpq's names.
///
/// Unlike libpq, `require` checks the server's certificate: it must chain to the system's trusted roots, or to the
/// certificates of the URL's `sslrootcert` file. Only `allow` and `prefer`, which accept an unencrypted connection
/// anyway, skip the check.
public enum PostgresSSLMode: String, Sendable, CaseIterable {
    /// No TLS.
    case disable
    /// TLS when the server offers it, without checking its certificate (as `prefer`: the driver has no second try).
    case allow
    /// TLS when the server offers it, without checking its certificate; libpq's default, and so the URL's.
    case prefer
    /// TLS or no connection; the certificate must chain to a trusted root (the host name is not checked).
    case require
    /// As `require`.
    case verifyCA = "verify-ca"
    /// TLS or no connection; the certificate must chain to a trusted root and name the URL's host.
    case verifyFull = "verify-full"
}
