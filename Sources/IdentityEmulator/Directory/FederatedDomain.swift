/// A domain of a tenant whose users sign in at their organisation's own identity provider (AD FS or another
/// WS-Federation/SAML provider), not with a password Entra checks.
///
/// The user realm answers `Federated` for it, the sign-in page sends its users to the provider (a home-realm page
/// saying where), and the password grant refuses them as Entra does (AADSTS50126): Entra cannot check a password
/// it does not hold.
public struct FederatedDomain: Codable, Sendable, Equatable {
    /// The domain, e.g. `fabrikam.com`: users `name@fabrikam.com` are federated.
    public var name: String
    /// The host of the organisation's identity provider, e.g. `sts.fabrikam.com`.
    public var federationHost: String

    public init(name: String, federationHost: String) {
        self.name = name
        self.federationHost = federationHost
    }

    /// The provider's passive sign-in page, where a browser is sent (AD FS's `/adfs/ls/`).
    public var signInURL: String { "https://\(federationHost)/adfs/ls/" }
    /// The provider's WS-Trust metadata (MEX) document.
    public var metadataURL: String { "https://\(federationHost)/adfs/services/trust/mex" }
    /// The provider's WS-Trust endpoint for a username and password.
    public var activeAuthURL: String { "https://\(federationHost)/adfs/services/trust/2005/usernamemixed" }

    /// The domain of a username (`name@domain`), lowercased; `nil` without an `@`.
    static func domain(of username: String) -> String? {
        guard let at = username.lastIndex(of: "@") else { return nil }
        let domain = username[username.index(after: at)...]
        return domain.isEmpty ? nil : domain.lowercased()
    }
}

extension DirectoryIndex {
    /// The tenant that federates `domain`, and the domain's provider; `nil` for a domain no tenant federates.
    func federatedDomain(_ domain: String) -> (tenant: Tenant, domain: FederatedDomain)? {
        for tenant in directory.tenants {
            if let match = tenant.federatedDomains.first(where: { $0.name.lowercased() == domain.lowercased() }) {
                return (tenant, match)
            }
        }
        return nil
    }
}
