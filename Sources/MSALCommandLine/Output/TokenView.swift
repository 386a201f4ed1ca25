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

    /// `Signed in as Megan Bowen <MeganB@contoso.onmicrosoft.com> in tenant 8b5d2f1e-….`
    static func signedIn(_ result: AuthenticationResult) -> String {
        let name = result.account.accountClaims["name"].map { "\($0) " } ?? ""
        return "Signed in as \(name)<\(result.account.username)> in tenant \(result.tenantProfile.tenantID)."
    }
}
