import Foundation

/// A signed-in user: one per home account, with a profile per tenant the user signed into.
public struct Account: Sendable, Hashable, CustomStringConvertible {
    /// The home account id: `identifier` = `uid.utid`, `objectID` = uid, `tenantID` = utid.
    public struct ID: Sendable, Hashable {
        /// The home account id, `uid.utid`: the account's object id and home tenant id joined by a dot.
        public let identifier: String
        /// The account's object id in its home tenant (`uid`).
        public let objectID: String
        /// The account's home tenant id (`utid`).
        public let tenantID: String
    }

    /// The home account id and its parts.
    public let homeAccountID: ID
    /// The sign-in name (`preferred_username`).
    public let username: String
    /// The identity provider's host (cache environment).
    public let environment: String
    /// The ID-token claims of the home tenant (`preferred_username`, `name`, `oid`, `tid`…).
    public let accountClaims: [String: String]
    /// One profile per tenant the user signed into, the home tenant's among them.
    public let tenantProfiles: [TenantProfile]

    /// The identifier to persist and pass back to ``PublicClientApplication/account(identifier:)``.
    public var identifier: String { homeAccountID.identifier }

    /// Two accounts are equal when they have the same ``identifier`` and ``environment``.
    public static func == (a: Account, b: Account) -> Bool {
        a.identifier == b.identifier && a.environment == b.environment
    }
    /// Hashes the ``identifier``.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// Redacted: usernames are personal data.
    public var description: String { "Account(\(identifier.prefix(8))…)" }
}

/// The account as seen in one tenant.
public struct TenantProfile: Sendable, Hashable {
    /// The account's object id in this tenant (its local account id, the ID token's `oid`); not the home
    /// account id, which is ``Account/identifier``.
    public let localAccountID: String
    /// The tenant id.
    public let tenantID: String
    /// The identity provider's host (cache environment).
    public let environment: String
    /// Whether this is the profile of the account's home tenant.
    public let isHomeTenantProfile: Bool
    /// The ID-token claims issued in this tenant.
    public let claims: [String: String]
}

/// A token and what comes with it.
public struct AuthenticationResult: Sendable {
    /// Where the token came from.
    public enum Source: String, Sendable {
        /// An unexpired access token from the cache.
        case cache
        /// A token the identity provider issued for this call.
        case identityProvider
    }

    /// The access token, to send as a bearer token.
    public let accessToken: String
    /// When the access token expires.
    public let expiresOn: Date
    /// The scopes the token was granted for.
    public let scopes: [String]
    /// The raw ID token, when one was issued or cached.
    public let idToken: String?
    /// The account the token was issued for.
    public let account: Account
    /// The account's profile in the tenant that issued the token.
    public let tenantProfile: TenantProfile
    /// The correlation id of the call that returned the token (its `client-request-id` when it reached the server).
    public let correlationID: UUID
    /// Whether the token came from the cache or from the identity provider.
    public let source: Source

    /// `Bearer <token>`, the `Authorization` header value.
    public var authorizationHeader: String { "Bearer \(accessToken)" }
}

/// An account an app signed in (or signed in before), as the cache's account metadata keeps it: enough
/// to name the account after its tokens are gone (MSAL's "previous account" after a sign-out).
struct PrincipalAccount: Sendable {
    let homeAccountID: String
    let username: String?
    let environment: String?

    init(homeAccountID: String, username: String?, environment: String?) {
        self.homeAccountID = homeAccountID
        self.username = username
        self.environment = environment
    }

    init(_ account: Account) {
        self.init(homeAccountID: account.identifier, username: account.username, environment: account.environment)
    }
}

extension Account {
    /// A signed-out account known only from the account metadata: no claims, no tenant profiles.
    init(signedOut principal: PrincipalAccount) {
        let parts = principal.homeAccountID.split(separator: ".", maxSplits: 1).map(String.init)
        homeAccountID = ID(
            identifier: principal.homeAccountID, objectID: parts[0], tenantID: parts.count > 1 ? parts[1] : "")
        username = principal.username ?? ""
        environment = principal.environment ?? ""
        accountClaims = [:]
        tenantProfiles = []
    }
}
