import Foundation
import IdentityEmulator
import Testing

/// Azure DevOps, Microsoft's application in every tenant: what Git Credential Manager (and `msal git-credential`)
/// ask a token for, to send to Azure Repos as a password.
@Suite("The Azure DevOps application")
struct AzureDevOpsApplicationTests {
    static let azureDevOps = "499b84ac-1321-427f-aa17-267ca6975798"

    @Test(
        "Azure CLI and any other public client get {Azure DevOps}/.default tokens for users: v1.0, aud its id, user_impersonation when preconsented",
        arguments: [(Directory.DemoIDs.azureCLI, "user_impersonation"), (Directory.DemoIDs.publicClient, "")])
    func userTokens(client: String, scope: String) async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.passwordGrant(
                scope: "\(Self.azureDevOps)/.default openid offline_access", client: client)
            #expect(result.status == 200, "\(result.body)")
            let claims = try JWTInspection.claims(try #require(try result.string("access_token")))
            #expect(claims["aud"] as? String == Self.azureDevOps)
            #expect(claims["iss"] as? String == "https://sts.windows.net/\(emulator.ids.contosoTenant)/")
            #expect(claims["ver"] as? String == "1.0")
            #expect(claims["appid"] as? String == client)
            #expect((claims["scp"] as? String ?? "") == scope)
        }
    }

    @Test("a service principal gets an {Azure DevOps}/.default token with its secret, aud Azure DevOps' id")
    func appToken() async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.token(
                emulator.ids.contosoTenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.confidentialClient),
                    ("client_secret", emulator.ids.confidentialSecret), ("scope", "\(Self.azureDevOps)/.default"),
                ])
            #expect(result.status == 200, "\(result.body)")
            let claims = try JWTInspection.claims(try #require(try result.string("access_token")))
            #expect(claims["aud"] as? String == Self.azureDevOps)
            #expect(claims["appid"] as? String == emulator.ids.confidentialClient)
        }
    }
}
