import Foundation
import MSAL

/// An account as `msal accounts` and `msal login` show it.
struct AccountView: Sendable, Equatable {
    let username: String
    let name: String
    let homeTenant: String
    let tenants: [String]
    let homeAccountID: String
    let environment: String
    let isCurrent: Bool

    /// The `msal accounts` table; `*` marks the signed-in account.
    static func table(_ accounts: [AccountView]) -> String {
        TextTable.render(
            accounts.map { account in
                [
                    account.isCurrent ? "*" : " ", account.username, account.name.isEmpty ? "—" : account.name,
                    account.tenants.map { $0 == account.homeTenant ? "\($0) (home)" : $0 }.joined(separator: ", "),
                ]
            }, header: [" ", "USERNAME", "NAME", "TENANTS"])
    }

    var json: [String: Any] {
        [
            "username": username, "name": name, "home_account_id": homeAccountID, "home_tenant_id": homeTenant,
            "tenant_ids": tenants, "environment": environment, "current": isCurrent,
        ]
    }
}

extension AccountView {
    init(_ account: Account, isCurrent: Bool) {
        self.init(
            username: account.username, name: account.accountClaims["name"] ?? "",
            homeTenant: account.homeAccountID.tenantID,
            tenants: account.tenantProfiles.map(\.tenantID).sorted(),
            homeAccountID: account.identifier, environment: account.environment, isCurrent: isCurrent)
    }
}
