import Foundation
import IdentityEmulator
import Testing

/// The Azure Kubernetes Service's Entra server and client, Microsoft's applications in every tenant: what kubelogin
/// (and `msal kube get-token`) ask a token for with `--server-id 6dae42f8-…`.
@Suite("The AKS Entra server application")
struct KubernetesServerApplicationTests {
    static let server = Directory.DemoIDs.aksServer

    @Test(
        "the AKS client, Azure CLI and any other public client get {server id}/.default tokens for users: v1.0, aud the server id, user.read when preconsented",
        arguments: [
            (Directory.DemoIDs.aksClient, "user.read"), (Directory.DemoIDs.azureCLI, "user.read"),
            (Directory.DemoIDs.publicClient, ""),
        ])
    func userTokens(client: String, scope: String) async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.passwordGrant(
                scope: "\(Self.server)/.default openid offline_access", client: client)
            #expect(result.status == 200, "\(result.body)")
            let claims = try JWTInspection.claims(try #require(try result.string("access_token")))
            #expect(claims["aud"] as? String == Self.server)
            #expect(claims["iss"] as? String == "https://sts.windows.net/\(emulator.ids.contosoTenant)/")
            #expect(claims["ver"] as? String == "1.0")
            #expect(claims["appid"] as? String == client)
            #expect((claims["scp"] as? String ?? "") == scope)
        }
    }

    @Test("a service principal gets a {server id}/.default token with its secret, aud the server id")
    func appToken() async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.token(
                emulator.ids.contosoTenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.confidentialClient),
                    ("client_secret", emulator.ids.confidentialSecret), ("scope", "\(Self.server)/.default"),
                ])
            #expect(result.status == 200, "\(result.body)")
            let claims = try JWTInspection.claims(try #require(try result.string("access_token")))
            #expect(claims["aud"] as? String == Self.server)
            #expect(claims["appid"] as? String == emulator.ids.confidentialClient)
        }
    }
}
