/// Whether `host`, a URL's host in lowercase, names this machine: `localhost`, `::1` (bracketed or not) or an IPv4
/// address in 127.0.0.0/8 (four numeric parts: `127.evil.example` is a name).
package func isLoopbackHost(_ host: String) -> Bool {
    if host == "localhost" || host == "::1" || host == "[::1]" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127"
        && parts.allSatisfy {
            !$0.isEmpty && $0.count <= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } && Int($0)! <= 255
        }
}

/// Whether `host`, a URL's host in lowercase, is a name under `localhost` (`login.contoso.localhost`): this machine's
/// by RFC 6761 §6.3, though glibc's resolver looks such names up in DNS. ``DefaultHTTPTransport`` connects to
/// `localhost` itself for them, so plain `http` to one stays on this machine as to a loopback host; other programs
/// (a database driver) would resolve it, so it is not a loopback host for them.
package func isNameUnderLocalhost(_ host: String) -> Bool {
    host.hasSuffix(".localhost") && host.count > ".localhost".count
}
