import Foundation
import IdentityEmulator
import Testing

/// A B2C sign-in by `msal` read by the real MSAL Python from the same cache file: the account per policy and the
/// access token filed where MSAL Python looks for them.
@Suite("Sharing a B2C policy's cache entries with MSAL Python", .timeLimit(.minutes(5)))
struct B2CCacheInteropTests {
    static let scope = "https://fabrikamb2c.onmicrosoft.com/demoapi/demo.read"

    @Test("msal login through the sign-up or sign-in policy; MSAL Python finds the account and token, then refreshes")
    func pythonReadsOurB2CEntries() async throws {
        try await CacheInteropTests.withTLS(tenant: "fabrikamb2c.onmicrosoft.com/B2C_1_signupsignin") {
            emulator, sandbox, ca in
            let environment = [
                "MSAL_CA_BUNDLE": ca, "MSAL_CLIENT_ID": Directory.DemoIDs.b2cPublicClient,
                "BROWSER": CLISandbox.browser(Directory.DemoIDs.b2cUser, Directory.DemoIDs.b2cUserPassword),
            ]
            let login = try await sandbox.msal(["login", "--scopes", Self.scope], environment)
            #expect(login.status == 0, "\(login.stderr)")
            let python = try await MSALPython.run([
                "silent-from-file", sandbox.cachePath, sandbox.authority, Directory.DemoIDs.b2cPublicClient, ca,
                Self.scope,
            ])
            let accounts = python["accounts"] as? [[String: Any]] ?? []
            #expect(
                accounts.first?["home_account_id"] as? String
                    == "1b3d5f7a-9c2e-4b4d-8f6a-0c2e4a6b8d0f-b2c_1_signupsignin.\(Directory.DemoIDs.b2cTenant)",
                "\(python)")
            #expect((python["cached"] as? [String: Any])?["token_source"] as? String == "cache", "\(python)")
            #expect(
                (python["refreshed"] as? [String: Any])?["token_source"] as? String == "identity_provider", "\(python)")
            #expect(try await CLICommandTests.grants(emulator) == ["authorization_code", "refresh_token"])
        }
    }
}
