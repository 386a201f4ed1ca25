/// Whom a sample's banner suggests signing in as.
extension Directory {
    /// The first user of `tenant` (its id or its domain, in any case) who signs in with a password: in the built-in
    /// ``demo`` directory, `jane@example.com` in the External ID tenant and `MeganB@contoso.onmicrosoft.com` in
    /// Contoso. `nil` when the tenant has no such user.
    public func passwordUser(in tenant: String) -> User? {
        guard let tenant = DirectoryIndex(self).tenant(id: tenant) else { return nil }
        return users.first { $0.tenant == tenant.id && $0.password != nil }
    }
}
