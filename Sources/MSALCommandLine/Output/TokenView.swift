import Foundation
import MSAL

/// `msal token --json`: what a script needs to use and renew the token.
enum TokenView {
    static func json(_ result: AuthenticationResult) -> [String: Any] {
        [
            "token": result.accessToken, "token_type": "Bearer",
            "expires_on": Int(result.expiresOn.timeIntervalSince1970),
            "scopes": result.scopes, "account": result.account.username, "tenant_id": result.tenantProfile.tenantID,
            "source": result.source == .cache ? "cache" : "identity_provider",
        ]
    }

    /// `msal app token --json`: the same shape, with the app's roles instead of an account.
    static func json(_ result: AppTokenResult) -> [String: Any] {
        [
            "token": result.accessToken, "token_type": "Bearer",
            "expires_on": Int(result.expiresOn.timeIntervalSince1970),
            "scopes": result.scopes, "roles": result.roles, "tenant_id": result.tenantID,
            "source": result.source == .cache ? "cache" : "identity_provider",
        ]
    }

    /// `msal token --format az`: the keys and formats `az account get-access-token` prints (Azure CLI 2's
    /// `get_access_token`): `expires_on` in seconds since 1970, `expiresOn` the same in local time. Without
    /// `subscription`, as Azure CLI answers when asked for a tenant: `msal` knows no subscriptions.
    static func azureCLI(_ result: AuthenticationResult) -> [String: Any] {
        let expiry = Int(result.expiresOn.timeIntervalSince1970)
        return [
            "accessToken": result.accessToken, "expiresOn": LocalTime.azureCLI(expiry), "expires_on": expiry,
            "tenant": result.tenantProfile.tenantID, "tokenType": "Bearer",
        ]
    }

    /// `msal token --format tsv`: ``azureCLI(_:)``'s values on one line, tab-separated in the order of their keys, as
    /// Azure CLI's `-o tsv` prints a dictionary.
    static func tabSeparated(_ result: AuthenticationResult) -> String {
        azureCLI(result).sorted { $0.key < $1.key }.map { "\($0.value)" }.joined(separator: "\t")
    }

    /// `Signed in as Megan Bowen <MeganB@contoso.onmicrosoft.com> in tenant 8b5d2f1e-….`
    static func signedIn(_ result: AuthenticationResult) -> String {
        let name = result.account.accountClaims["name"].map { "\($0) " } ?? ""
        return "Signed in as \(name)<\(result.account.username)> in tenant \(result.tenantProfile.tenantID)."
    }
}
