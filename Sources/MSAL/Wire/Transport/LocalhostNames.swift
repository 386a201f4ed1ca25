import Foundation

/// Names under `localhost` (`westus2.localhost`, a local emulator answering as a region) are this machine's
/// (RFC 6761 §6.3), but resolvers need not know it: glibc's looks them up in DNS. ``DefaultHTTPTransport`` connects
/// to `localhost` itself for such a name and names the original host in `Host`, so the request never leaves the
/// machine and the server still sees which name was asked for.
enum LocalhostNames {
    /// Where to connect for `url`: `url` with `localhost` for its host and the `Host` to send, when its host is a
    /// name under `localhost`; `nil` for any other URL.
    static func connection(for url: URL) -> (url: URL, host: String)? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.host?.lowercased(), isNameUnderLocalhost(host)
        else { return nil }
        components.host = "localhost"
        guard let connection = components.url else { return nil }
        return (connection, host + (url.port.map { ":\($0)" } ?? ""))
    }
}
