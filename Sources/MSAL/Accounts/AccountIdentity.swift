import Foundation

/// How a user's token response names its account, the one rule every flow files entries by, as MSAL Python's
/// `token_cache.py` does so that a cache file stays shared with it.
enum AccountIdentity {
    /// The home account id: `uid.utid` from `client_info` (Microsoft's identity providers); else the ID token's
    /// `sub`, for an OpenID provider that sends no `client_info`.
    ///
    /// - Throws: ``MSALError`` `invalidResponse` for a `client_info` that cannot be decoded, or neither
    ///   `client_info` nor `sub`.
    static func homeAccountID(clientInfo: String?, idToken: JWT) throws -> String {
        if let clientInfo { return try ClientInfo(encoded: clientInfo).homeAccountID }
        if let sub = idToken.string("sub") { return sub }
        throw MSALError.internal(
            .invalidResponse, "The token response identifies no account (no client_info, no sub).")
    }

    /// The realm the account, its ID token and (but for a multi-tenant segment) its access token are filed under:
    /// for an OpenID Connect authority the token endpoint's first path segment (MSAL Python's realm, `""` when
    /// it has none); for a B2C policy the authority's tenant (`{tenant}.onmicrosoft.com`, as MSAL Python files B2C
    /// tokens); else the ID token's `tid`, else the authority's tenant.
    static func realm(idToken: JWT, endpoints: AuthorityEndpoints) -> String {
        if endpoints.authority.kind == .oidc { return endpoints.issuerTenant ?? "" }
        if endpoints.authority.kind == .b2c { return endpoints.authority.tenant }
        return idToken.string("tid") ?? endpoints.authority.tenant
    }
}
