import Foundation
import IdentityEmulator
import MSAL

/// A user's access token from the password grant the emulator allows its public clients (no pages to go through).
package enum PasswordGrant {
    /// `username`'s token for `scope`, through the External ID public client at `tenant` (a tenant id or
    /// `organizations`).
    package static func token(
        _ emulator: RunningEmulator, username: String, password: String, tenant: String, scope: String
    ) async throws -> String {
        let form = FormEncoding.encode([
            ("grant_type", "password"), ("client_id", Directory.DemoIDs.externalPublicClient),
            ("username", username), ("password", password), ("scope", scope),
        ])
        let (_, answer) = try await DefaultHTTPTransport().send(
            HTTPRequest(
                method: .post, url: emulator.authority(tenant).appendingPathComponent("oauth2/v2.0/token"),
                headerFields: [.contentType: "application/x-www-form-urlencoded"]),
            body: Data(form.utf8))
        guard let token = (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["access_token"] as? String
        else { throw MSALError.internal(.invalidResponse, "The emulator's token answer has no access token.") }
        return token
    }
}
