import Foundation

/// Whether an OpenID Connect authority's discovered issuer belongs to it: MSAL Python's `has_valid_issuer`
/// (MSAL.NET and MSAL.js have the same rules), with MSAL.js's addition of the developer's known authorities.
///
/// The issuer is accepted when it is the authority itself (trailing slashes aside); is on the authority's
/// scheme and host; is on a Microsoft cloud host (`login.microsoftonline.com`, …) or a regional one
/// (`westus2.login.microsoft.com`, `{region}.{authority host}`); is on a `b2clogin` or `ciamlogin.com`
/// host (an External ID tenant on a custom URL domain keeps its `{tenant}.ciamlogin.com` issuer); or is on the
/// host of one of the app's known authorities.
enum OIDCIssuerCheck {
    /// - Parameters:
    ///   - issuer: the discovery document's `issuer`.
    ///   - authority: the OpenID Connect authority the document was read from.
    ///   - knownEnvironments: `host[:port]` of the app's known authorities.
    static func accepts(_ issuer: String, authority: Authority, knownEnvironments: Set<String>) -> Bool {
        if trimmed(issuer) == trimmed(authority.url.absoluteString) { return true }
        guard let url = URL(string: issuer), let host = url.host?.lowercased(), !host.isEmpty else { return false }
        let environment = url.port.map { "\(host):\($0)" } ?? host
        if url.scheme?.lowercased() == authority.url.scheme?.lowercased(), environment == authority.environment {
            return true
        }
        if Authority.trustedHosts.contains(host) || knownEnvironments.contains(environment) { return true }
        if let dot = host.firstIndex(of: "."), dot != host.startIndex {
            let base = String(host[host.index(after: dot)...])
            if Authority.trustedHosts.contains(base) || base == authority.url.host?.lowercased() { return true }
        }
        return (Authority.b2cDomains + [Authority.ciamDomain]).contains { host.hasSuffix("." + $0) }
    }

    private static func trimmed(_ url: String) -> Substring {
        var s = url[...]
        while s.hasSuffix("/") { s = s.dropLast() }
        return s
    }
}
