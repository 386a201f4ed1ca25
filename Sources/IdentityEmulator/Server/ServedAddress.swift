import Foundation
import Locking

/// Where the emulator is reached: the one origin every issuer names (as Entra's issuer does not depend
/// on which of its host names a client used) and the `Host` values it answers to.
///
/// The listening address is known once the port is bound (port `0` picks one), so its names are filled
/// in then. A public URL may have another scheme than the listener (a proxy that ends TLS).
final class ServedAddress: Sendable {
    /// The scheme the emulator itself serves.
    let scheme: String
    private let host: String
    /// `--public-url` as an origin without a trailing slash, and its `host:port` as its scheme writes it.
    private let publicOrigin: String?
    private let publicScheme: String
    private let publicAuthority: String?
    /// The bound address's origin and the lower-cased `host:port` values of it and its loopback aliases.
    private let bound = Locked<(origin: String, authorities: Set<String>)?>(nil)

    /// - Parameters:
    ///   - host: the interface listened on; a wildcard (`0.0.0.0`, `::`) is named by `127.0.0.1`.
    ///   - publicURL: the origin clients use when it is not the bound address (a proxy, a host name).
    init(scheme: String, host: String, publicURL: URL?) {
        self.scheme = scheme
        self.host = host
        publicScheme = publicURL?.scheme?.lowercased() ?? scheme
        if let publicURL, let publicHost = publicURL.host {
            let named = Self.bracketed(publicHost) + (publicURL.port.map { ":\($0)" } ?? "")
            publicOrigin = "\(publicScheme)://\(named)"
            publicAuthority = Self.normalized(named, scheme: publicScheme)
        } else {
            publicOrigin = nil
            publicAuthority = nil
        }
    }

    /// Fills in the names of the bound port.
    func bind(port: Int) {
        let wildcard = ["0.0.0.0", "::", "[::]", ""].contains(host)
        let own = wildcard ? "127.0.0.1" : Self.bracketed(host)
        let names = Set((["127.0.0.1", "localhost", "[::1]", own]).map { "\($0.lowercased()):\(port)" })
        bound.withLock { $0 = ("\(scheme)://\(own):\(port)", names) }
    }

    /// The canonical origin: the public URL, else the bound address (before binding: the host alone).
    var origin: String { publicOrigin ?? bound.withLock { $0?.origin } ?? "\(scheme)://\(host)" }

    /// The `host:port` values requests may name, lower-cased.
    var authorities: Set<String> {
        let own = bound.withLock { $0?.authorities } ?? []
        return publicAuthority.map { own.union([$0]) } ?? own
    }

    /// True when a request's `Host` (`authority`) names this emulator.
    func accepts(authority: String) -> Bool {
        if let publicAuthority, Self.normalized(authority, scheme: publicScheme) == publicAuthority { return true }
        return bound.withLock { $0?.authorities.contains(Self.normalized(authority, scheme: scheme)) } ?? false
    }

    /// The region `authority` names when it is one of the emulator's host names (not an IP address) under a region's
    /// label, as Entra's regional token service is reached (`westus2.login.microsoft.com`): `westus2` for
    /// `westus2.localhost:8443`; `nil` for any other name.
    func region(in authority: String) -> String? {
        let lowered = authority.lowercased()
        guard let dot = lowered.firstIndex(of: ".") else { return nil }
        let label = String(lowered[..<dot])
        let rest = String(lowered[lowered.index(after: dot)...])
        let restHost = rest.hasPrefix("[") ? rest : String(rest.prefix { $0 != ":" })
        guard Self.isRegionLabel(label), restHost.contains(where: \.isLetter), !restHost.hasPrefix("["),
            accepts(authority: rest)
        else { return nil }
        return label
    }

    /// A region's name as a DNS label: a lower-case letter, then up to 62 lower-case letters, digits or hyphens,
    /// not ending in a hyphen (`westus2`, `eastus2euap`).
    static func isRegionLabel(_ label: String) -> Bool {
        guard let first = label.unicodeScalars.first, label.count <= 63, ("a"..."z").contains(first),
            label.last != "-"
        else { return false }
        return label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// The origin a client reached the emulator at through `authority` (an accepted `Host`): the public
    /// origin for the public name, else the listener's scheme with that name.
    func origin(reachedThrough authority: String) -> String {
        if let publicOrigin, Self.normalized(authority, scheme: publicScheme) == publicAuthority { return publicOrigin }
        return "\(scheme)://\(authority)"
    }

    /// `host:port`, lower-cased, with the scheme's default port when none is given.
    static func normalized(_ authority: String, scheme: String) -> String {
        let lowered = authority.lowercased()
        let hostEnd =
            lowered.hasPrefix("[")
            ? lowered.firstIndex(of: "]").map(lowered.index(after:)) : lowered.firstIndex(of: ":")
        guard let hostEnd, hostEnd < lowered.endIndex else {
            return "\(lowered):\(scheme.lowercased() == "https" ? 443 : 80)"
        }
        return lowered
    }

    /// A host as it is written before a port: IPv6 literals in brackets.
    static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
