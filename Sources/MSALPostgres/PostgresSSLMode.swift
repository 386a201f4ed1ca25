/// Whether a ``PostgresTokenCacheStore`` encrypts its connections and authenticates the server: the `sslmode` of its
/// URL, with libpq 16's names and guarantees.
///
/// Only `verify-full` makes sure the connection reaches the server the URL names. `verify-ca` (and `require` with an
/// `sslrootcert` file) accepts any server holding a certificate from that file's authorities. The other modes check
/// nothing: whoever can intercept the connection can pose as the server, and read and change what the store loads
/// and saves. A store whose URL names a host other than loopback with such a mode logs a warning once, when it is made.
///
/// The certificates a mode checks against come from the URL's `sslrootcert`: a PEM file of certificate authorities,
/// or `system` for the system's trusted roots. `sslrootcert=system` needs `verify-full`, and makes it the default:
/// the system's roots vouch for every publicly named host, so only the host name check makes them mean anything.
/// libpq reads `~/.postgresql/root.crt` when `sslrootcert` is absent; the store reads only the file its URL names,
/// so `verify-ca` without `sslrootcert` is refused, and `verify-full` without it trusts the system's roots, as with
/// `sslrootcert=system`.
///
/// A Unix socket is never encrypted, whatever the mode (as with libpq).
public enum PostgresSSLMode: String, Sendable, CaseIterable {
    /// No TLS: the connection is neither encrypted nor authenticated.
    case disable
    /// TLS when the server offers it, without checking its certificate: as `prefer` (libpq tries without TLS first;
    /// the driver cannot), so an attacker can pose as the server, or have the connection made without TLS.
    case allow
    /// TLS when the server offers it, without checking its certificate: an attacker can pose as the server, or have
    /// the connection made without TLS. libpq's default, and so the URL's.
    case prefer
    /// TLS or no connection. Without `sslrootcert` the certificate is not checked: the connection is encrypted, but an
    /// attacker who intercepts it can pose as the server. With an `sslrootcert` file, as `verify-ca` (as libpq when
    /// it has a root certificate file). Refused with `sslrootcert=system`.
    case require
    /// TLS or no connection, and the certificate must chain to a certificate authority of the `sslrootcert` file,
    /// which this mode needs. The host name is not checked, so any server holding a certificate from those
    /// authorities is accepted: right for a private authority that certifies database servers only. Refused with
    /// `sslrootcert=system`.
    case verifyCA = "verify-ca"
    /// TLS or no connection; the certificate must chain to a certificate authority of the `sslrootcert` file, or to
    /// the system's trusted roots (`sslrootcert=system`, or no `sslrootcert`), and name the URL's host (as a DNS
    /// name, or as an IP address when the URL names one).
    case verifyFull = "verify-full"
}
