/// Home-realm discovery by `domain_hint`: which sign-in page a hinted domain leads to.
enum DomainHint: Equatable {
    /// A tenant's own domain (its initial domain or id): that tenant's sign-in page, with no choice of realm.
    case tenant(name: String)
    /// A tenant's federated domain: its users are sent to the organisation's identity provider.
    case federated(organization: String, signInURL: String)
    /// A domain no tenant has.
    case unknown

    /// What `hint` leads to in `index`.
    init(_ hint: String, index: DirectoryIndex) {
        let domain = hint.lowercased()
        if let (tenant, federated) = index.federatedDomain(domain) {
            self = .federated(organization: tenant.displayName, signInURL: federated.signInURL)
        } else if let tenant = index.tenant(id: domain) {
            self = .tenant(name: tenant.displayName)
        } else {
            self = .unknown
        }
    }
}
