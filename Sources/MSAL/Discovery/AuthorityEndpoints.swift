import Foundation
import OutsideJSON

/// An authority after discovery: its endpoints, issuer, signing keys and the host aliases that
/// count as the same cache environment. A class: every silent call reads it, and handing on one
/// reference is cheaper than copying a dozen strings and URLs.
final class AuthorityEndpoints: Sendable {
    let authority: Authority
    let authorization: URL
    let token: URL
    let deviceAuthorization: URL?
    let endSession: URL?
    let jwks: URL
    /// The issuer; may contain the literal `{tenantid}` for multi-tenant authorities.
    let issuer: String
    /// Environments (`host[:port]`, and each host alone as MSAL Python writes it) that are the same
    /// identity provider (instance discovery aliases).
    let aliases: Set<String>
    /// The tenant the issuer names (its first path segment); `nil` for a `{tenantid}` issuer, whose
    /// tenant is each account's own. For an OpenID Connect authority, the token endpoint's first path
    /// segment (`nil` when it has none), the realm MSAL Python files its tokens under; for a B2C policy, the
    /// authority's tenant. Worked out once, not on every silent call.
    let issuerTenant: String?
    /// The `environment` this library writes cache entries under (``Authority/cacheEnvironment``), kept
    /// so a silent lookup compares with it before hashing its way through `aliases`.
    let cacheEnvironment: String
    /// False when read from an ``AuthorityMetadataFile`` rather than fetched by this process.
    let discoveredOnline: Bool

    /// Reads the OpenID configuration document and checks that it belongs to `authority`.
    ///
    /// - Parameters:
    ///   - discoveredOnline: false for a document read from an ``AuthorityMetadataFile``.
    ///   - knownEnvironments: `host[:port]` of the app's known authorities, whose issuers an OpenID Connect
    ///     authority may name (``OIDCIssuerCheck``).
    /// - Throws: ``MSALError`` `invalidResponse` for a document that is not a JSON object within
    ///   ``JSONLimits/message`` or lacks the required members, `failedAuthorityValidation` when the issuer is on
    ///   another host.
    init(
        authority: Authority, document data: Data, aliases: Set<String>, discoveredOnline: Bool = true,
        knownEnvironments: Set<String> = []
    ) throws {
        let members = try JSONLimits.message.members(data) { "The OpenID configuration of \(authority) \($0)." }
        func url(_ name: String) -> URL? {
            guard case .string(let text)? = members[name] else { return nil }
            return URL(string: Self.filling("{tenant}", with: authority.tenant, in: text))
        }
        guard let authorization = url("authorization_endpoint"), let token = url("token_endpoint"),
            let keys = IssuerMetadata(configuration: members)
        else {
            throw MSALError.internal(
                .invalidResponse,
                "The OpenID configuration of \(authority) lacks authorization_endpoint, token_endpoint, jwks_uri or issuer."
            )
        }
        self.authority = authority
        self.authorization = authorization
        self.token = token
        deviceAuthorization = url("device_authorization_endpoint")
        endSession = url("end_session_endpoint")
        jwks = keys.jwksURI
        let issuer = keys.issuer
        self.issuer = issuer
        self.discoveredOnline = discoveredOnline
        cacheEnvironment = authority.cacheEnvironment
        if authority.kind == .b2c {
            // B2C's issuer names the tenant id, its tokens no `tid`: MSAL Python files them under the tenant segment.
            issuerTenant = authority.tenant
        } else if authority.kind == .oidc {
            let segments = self.token.pathComponents
            issuerTenant = segments.count > 1 && segments[1] != "/" ? segments[1] : nil
        } else {
            let segments = URL(string: Self.withoutTemplate(issuer))?.pathComponents ?? []
            let tenant = segments.count > 1 ? segments[1] : authority.tenant
            issuerTenant = tenant == "tenantid" || tenant.isEmpty ? nil : tenant
        }
        let all = aliases.union([authority.environment])
        self.aliases = all.union(all.map(Self.withoutPort))
        if authority.kind == .oidc {
            guard OIDCIssuerCheck.accepts(issuer, authority: authority, knownEnvironments: knownEnvironments) else {
                throw MSALError.internal(
                    .failedAuthorityValidation, "The issuer '\(issuer)' does not belong to \(authority).")
            }
        } else {
            try Self.checkIssuer(issuer, authority: authority, aliases: self.aliases)
        }
    }

    /// The issuer with its `{tenantid}` template (multi-tenant authorities) made a plain path segment.
    private static func withoutTemplate(_ issuer: String) -> String {
        filling("{tenantid}", with: "tenantid", in: issuer)
    }

    /// `text` with `template` replaced by `value`; found in bytes first, since most texts hold none.
    private static func filling(_ template: String, with value: String, in text: String) -> String {
        text.includes(template) ? text.replacingOccurrences(of: template, with: value) : text
    }

    private static func withoutPort(_ environment: String) -> String {
        guard let colon = environment.lastIndex(of: ":"), colon != environment.startIndex,
            environment[environment.index(after: colon)...].allSatisfy(\.isNumber)
        else { return environment }
        return String(environment[..<colon])
    }

    /// The issuer must be served by the authority's host (or an alias), as MSAL Go checks; for a
    /// GUID tenant it must name that tenant.
    private static func checkIssuer(_ issuer: String, authority: Authority, aliases: Set<String>) throws {
        guard let url = URL(string: withoutTemplate(issuer)), let host = url.host?.lowercased() else {
            throw MSALError.internal(.failedAuthorityValidation, "The issuer '\(issuer)' of \(authority) is not a URL.")
        }
        let environment = url.port.map { "\(host):\($0)" } ?? host
        let sameProvider =
            aliases.contains(environment)
            || (authority.kind == .ciam && host.hasSuffix("." + Authority.ciamDomain))
            || (authority.kind == .b2c && host.hasSuffix(authority.url.host?.lowercased() ?? ""))
            || (Authority.trustedHosts.contains(host)
                && Authority.trustedHosts.contains(authority.url.host?.lowercased() ?? ""))
        guard sameProvider else {
            throw MSALError.internal(
                .failedAuthorityValidation, "The issuer '\(issuer)' is not served by \(authority.environment).")
        }
        if authority.kind == .aad, UUID(uuidString: authority.tenant) != nil, !issuer.includes("{tenantid}"),
            !issuer.lowercased().includes(authority.tenant)
        {
            throw MSALError.internal(
                .failedAuthorityValidation, "The issuer '\(issuer)' does not belong to tenant \(authority.tenant).")
        }
    }
}
