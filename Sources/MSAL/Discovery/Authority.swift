import Foundation

/// Where users sign in: a Microsoft Entra (AAD) tenant, an External ID (CIAM) tenant, a B2C policy,
/// or any OpenID Connect issuer.
///
/// URLs are normalised as MSAL does: host and tenant lower-cased, a trailing `/v2.0` dropped,
/// `https://{t}.ciamlogin.com/` turned into `https://{t}.ciamlogin.com/{t}.onmicrosoft.com`. An OpenID
/// Connect issuer (``Kind/oidc``, declared as MSAL.NET's `WithOidcAuthority` and MSAL Python's
/// `oidc_authority` are) keeps its whole path, `/v2.0` included. Plain `http` is accepted only for loopback
/// hosts and names under `localhost` (a local emulator or identity provider).
public struct Authority: Sendable, Hashable, CustomStringConvertible {
    /// The kind of identity provider, which decides how the URL is normalised and discovered.
    public enum Kind: String, Sendable, Hashable {
        /// Microsoft Entra ID: `https://login.microsoftonline.com/{tenant}` and the other Microsoft clouds.
        case aad
        /// Microsoft Entra External ID: `https://{tenant}.ciamlogin.com/{tenant}.onmicrosoft.com`.
        case ciam
        /// Azure AD B2C: `https://{host}/tfp/{tenant}/{policy}` or `https://{host}/{tenant}/{policy}`.
        case b2c
        /// Any other OpenID Connect issuer, discovered from its `.well-known/openid-configuration`.
        case oidc
    }

    /// The kind, detected from the host or declared.
    public let kind: Kind
    /// The normalised URL, e.g. `https://login.microsoftonline.com/common`.
    public let url: URL
    /// The first path segment: a tenant GUID or domain, `common`, `organizations` or `consumers`.
    public let tenant: String

    /// Hosts of the Microsoft clouds (`aadTrustedHostList`), which need no instance discovery.
    static let trustedHosts: Set<String> = [
        "login.microsoftonline.com", "login.windows.net", "login.microsoft.com", "sts.windows.net",
        "login.partner.microsoftonline.cn", "login.chinacloudapi.cn", "login.microsoftonline.de",
        "login-us.microsoftonline.com", "login.microsoftonline.us", "login.usgovcloudapi.net",
        "login.sovcloud-identity.fr", "login.sovcloud-identity.de", "login.sovcloud-identity.sg",
    ]

    /// The domains of Azure AD B2C's hosts (`{tenant}.b2clogin.com`; MSAL Python's `WELL_KNOWN_B2C_HOSTS`).
    static let b2cDomains = ["b2clogin.com", "b2clogin.cn", "b2clogin.us", "b2clogin.de"]
    /// The domain of External ID's hosts (`{tenant}.ciamlogin.com`).
    static let ciamDomain = "ciamlogin.com"

    /// Parses an authority URL, detecting its kind from the host unless `kind` is given.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for a non-https URL on a non-loopback host, a URL
    ///   without a tenant, or a malformed URL.
    public init(_ string: String, kind declared: Kind? = nil) throws {
        // The host as written (`encodedHost`; an internationalised name in its ASCII form, as `URL` keeps it): `host`
        // would decode it with IDNA, which loads ICU's data on every start of a command-line tool.
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased(),
            let rawHost = components.encodedHost, !rawHost.isEmpty
        else { throw MSALError.internal(.invalidParameter, "'\(string)' is not an authority URL.") }
        let host = rawHost.lowercased()
        guard scheme == "https" || (scheme == "http" && (isLoopbackHost(host) || isNameUnderLocalhost(host))) else {
            throw MSALError.internal(
                .invalidParameter, "The authority must use https (plain http only on loopback): \(string)")
        }
        let hostPort = components.port.map { "\(host):\($0)" } ?? host
        var segments = components.path.split(separator: "/").map(String.init)
        let versioned = segments.last?.lowercased() == "v2.0"
        let kind = declared ?? Self.detect(host: host, segments: versioned ? segments.dropLast() : segments[...])
        // An OpenID Connect issuer is kept whole: its discovery document is under the issuer's own path.
        if versioned, kind != .oidc { segments.removeLast() }
        switch kind {
        case .ciam:
            if segments.isEmpty {
                guard let name = host.split(separator: ".").first, host.hasSuffix("." + Self.ciamDomain) else {
                    throw MSALError.internal(.invalidParameter, "A CIAM authority needs a tenant: \(string)")
                }
                segments = ["\(name).onmicrosoft.com"]
            }
            segments = [segments[0].lowercased()]
        case .aad:
            guard let first = segments.first else {
                throw MSALError.internal(.invalidParameter, "The authority has no tenant (e.g. /common): \(string)")
            }
            segments = [first.lowercased()]
        case .b2c:
            guard segments.count >= 2 else {
                throw MSALError.internal(.invalidParameter, "A B2C authority needs a tenant and a policy: \(string)")
            }
            segments = Array(segments.prefix(segments.first?.lowercased() == "tfp" ? 3 : 2))
        case .oidc:
            break
        }
        self.kind = kind
        tenant = kind == .b2c && segments.first?.lowercased() == "tfp" ? segments[1] : (segments.first ?? "")
        // A loop, not `joined(separator:)`: its generic code asks the runtime for a conformance (see "Start-up" in
        // the library's README).
        let path = segments.reduce(into: "") { $0 += "/" + $1 }
        url = URL(string: "\(scheme)://\(hostPort)\(path)")!
    }

    /// This authority with another tenant (silent calls resolve `common` to the account's home tenant).
    func replacingTenant(_ tenant: String) -> Authority {
        guard kind == .aad || kind == .ciam, let copy = try? Authority("\(origin)/\(tenant)", kind: kind) else {
            return self
        }
        return copy
    }

    /// `scheme://host[:port]`.
    var origin: String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.path = ""
        return components.string!
    }

    /// `host[:port]`: what instance discovery and issuer checks compare.
    var environment: String {
        url.port.map { "\(url.host!.lowercased()):\($0)" } ?? url.host!.lowercased()
    }

    /// The host alone, the cache `environment` as MSAL Python writes it (so a cache file is shared
    /// even with an identity provider on a non-default port, such as a local emulator).
    var cacheEnvironment: String { url.host!.lowercased() }

    /// `common`, `organizations` or `consumers`: no single tenant.
    var isMultiTenant: Bool { kind == .aad && Self.multiTenantSegments.contains(tenant) }

    /// The tenant segments that name no single tenant.
    static let multiTenantSegments: Set<String> = ["common", "organizations", "consumers"]

    /// The realm an access token from `tenant` obtained through this authority is filed under: the
    /// segment for `common`, `organizations` and `consumers` (as MSAL Python files it), else the tenant.
    func accessTokenRealm(tenant: String) -> String { isMultiTenant ? self.tenant : tenant }

    /// The OpenID configuration document's URL.
    var discoveryURL: URL {
        switch kind {
        case .aad, .ciam, .b2c: url.appendingPathComponent("v2.0/.well-known/openid-configuration")
        case .oidc: url.appendingPathComponent(".well-known/openid-configuration")
        }
    }

    var isLoopback: Bool { isLoopbackHost(url.host?.lowercased() ?? "") }

    /// The normalised URL.
    public var description: String { url.absoluteString }

    private static func detect(host: String, segments: ArraySlice<String>) -> Kind {
        if host.hasSuffix("." + ciamDomain) { return .ciam }
        if b2cDomains.contains(where: { host.hasSuffix("." + $0) })
            || segments.first?.lowercased() == "tfp"
            || (segments.count > 1 && segments[1].lowercased().hasPrefix("b2c_"))
        {
            return .b2c
        }
        if trustedHosts.contains(host) || isLoopbackHost(host) || segments.count == 1 { return .aad }
        return .oidc
    }
}
