import Foundation
import Locking

/// Where the emulator is reached: the one origin every issuer names (as Entra's issuer does not depend
/// on which of its host names a client used) and the `Host` values it answers to.
///
/// Known once the port is bound (port `0` picks one), so the names are filled in then.
final class ServedAddress: Sendable {
    struct Names: Sendable {
        /// `scheme://host:port` without a trailing slash: the `--public-url`, else the bound address.
        let origin: String
        /// Lower-cased `host:port` values a request's `Host` may carry.
        let authorities: Set<String>
    }

    let scheme: String
    private let host: String
    private let publicURL: URL?
    private let names = Locked<Names?>(nil)

    /// - Parameters:
    ///   - host: the interface listened on; a wildcard (`0.0.0.0`, `::`) is named by `127.0.0.1`.
    ///   - publicURL: the origin clients use when it is not the bound address (a proxy, a host name).
    init(scheme: String, host: String, publicURL: URL?) {
        self.scheme = scheme
        self.host = host
        self.publicURL = publicURL
    }

    /// Fills in the names for the bound port.
    func bind(port: Int) {
        let loopback = ["127.0.0.1", "localhost", "[::1]"]
        let wildcard = ["0.0.0.0", "::", "[::]", ""].contains(host)
        let own = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        var authorities = Set((loopback + (wildcard ? [] : [own])).map { "\($0.lowercased()):\(port)" })
        let origin: String
        if let publicURL, let publicHost = publicURL.host {
            let publicPort = publicURL.port ?? Self.defaultPort(publicURL.scheme ?? scheme)
            let named = publicHost.contains(":") ? "[\(publicHost)]" : publicHost
            authorities.insert("\(named.lowercased()):\(publicPort)")
            origin = "\(publicURL.scheme ?? scheme)://\(named)" + (publicURL.port.map { ":\($0)" } ?? "")
        } else {
            origin = "\(scheme)://\(wildcard ? "127.0.0.1" : own):\(port)"
        }
        names.withLock { $0 = Names(origin: origin, authorities: authorities) }
    }

    /// The canonical origin (before the port is bound: the configured host alone).
    var origin: String { names.withLock { $0?.origin } ?? "\(scheme)://\(host)" }

    /// The `host:port` values requests may name.
    var authorities: Set<String> { names.withLock { $0?.authorities } ?? [] }

    /// True when a request's `Host` (`authority`) names this emulator; a request without one (HTTP/1.0)
    /// cannot come from a page that rebound a DNS name, so it is served.
    func accepts(authority: String?) -> Bool {
        guard let authority else { return true }
        return names.withLock { $0?.authorities.contains(Self.normalized(authority, scheme: scheme)) } ?? false
    }

    /// `host:port`, lower-cased, with the scheme's default port when none is given.
    static func normalized(_ authority: String, scheme: String) -> String {
        let lowered = authority.lowercased()
        let hostEnd = lowered.hasPrefix("[") ? lowered.firstIndex(of: "]").map(lowered.index(after:)) : lowered.firstIndex(of: ":")
        guard let hostEnd, hostEnd < lowered.endIndex else { return "\(lowered):\(defaultPort(scheme))" }
        return lowered
    }

    private static func defaultPort(_ scheme: String) -> Int { scheme.lowercased() == "https" ? 443 : 80 }
}
