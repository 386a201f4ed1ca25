import Foundation

/// A signed-in user (MSAL's `MSALAccount`), over the core ``Account``.
public final class MSALAccount: Sendable, CustomStringConvertible {
    /// The core account this object stands for.
    let account: Account

    /// Wraps a core account (for the native-auth layer and results).
    init(_ account: Account) {
        self.account = account
    }

    /// The sign-in name, mostly the UPN (`preferred_username`).
    public var username: String? { account.username }
    /// The identifier to persist and pass to `MSALPublicClientApplication.account(forIdentifier:)`.
    public var identifier: String? { account.identifier }
    /// The identity provider's host.
    public var environment: String { account.environment }
    /// The home tenant's ID-token claims (`preferred_username`, `name`, `oid`, `tid`…).
    public var accountClaims: [String: Any]? { account.accountClaims.isEmpty ? nil : account.accountClaims }
    /// The home account id: `uid.utid`, with its object id and tenant id.
    public var homeAccountId: MSALAccountId? { MSALAccountId(account.homeAccountID) }
    /// One profile per tenant the user signed into; filled by `MSALPublicClientApplication.allAccounts()`.
    public var tenantProfiles: [MSALTenantProfile]? {
        account.tenantProfiles.isEmpty ? nil : account.tenantProfiles.map(MSALTenantProfile.init)
    }

    /// Redacted: usernames are personal data.
    public var description: String { account.description }
}

/// The home account id (MSAL's `MSALAccountId`).
public final class MSALAccountId: Sendable {
    /// `uid.utid`.
    public let identifier: String?
    /// The account's object id in its home tenant (`uid`).
    public let objectId: String?
    /// The account's home tenant id (`utid`).
    public let tenantId: String?

    init(_ id: Account.ID) {
        identifier = id.identifier
        objectId = id.objectID
        tenantId = id.tenantID
    }
}

/// The account as seen in one tenant (MSAL's `MSALTenantProfile`).
public final class MSALTenantProfile: Sendable {
    let profile: TenantProfile

    init(_ profile: TenantProfile) {
        self.profile = profile
    }

    /// The object id in this tenant.
    public var identifier: String? { profile.localAccountID }
    /// The identity provider's host.
    public var environment: String? { profile.environment }
    /// The tenant id.
    public var tenantId: String? { profile.tenantID }
    /// Whether this is the profile of the account's home tenant.
    public var isHomeTenantProfile: Bool { profile.isHomeTenantProfile }
    /// This tenant's ID-token claims.
    public var claims: [String: Any]? { profile.claims.isEmpty ? nil : profile.claims }
}
