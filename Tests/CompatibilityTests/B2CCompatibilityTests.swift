import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import Testing

/// MSAL for iOS/macOS's B2C API as Microsoft's B2C sample app uses it: `MSALB2CAuthority` per user flow in the
/// `/tfp/{tenant}/{policy}` form, listed in `knownAuthorities`, accounts told apart by the policy suffix of their
/// object id, and `AADB2C90118` in the error's description starting the password reset flow.
@Suite("MSALB2CAuthority against the emulator's B2C tenant", .timeLimit(.minutes(2)))
struct B2CCompatibilityTests {
    static let tenant = "fabrikamb2c.onmicrosoft.com"
    static let scopes = ["https://fabrikamb2c.onmicrosoft.com/demoapi/demo.read"]
    static let emily = AutomatedUser.Choice.signIn(
        username: Directory.DemoIDs.b2cUser, password: Directory.DemoIDs.b2cUserPassword)

    static func authority(_ env: TutorialEnvironment, _ policy: String) throws -> MSALB2CAuthority {
        try MSALB2CAuthority(url: URL(string: "\(env.emulator.baseURL.absoluteString)/tfp/\(tenant)/\(policy)")!)
    }

    /// The account whose object id ends with the policy, as the sample looks accounts up.
    static func account(_ app: MSALPublicClientApplication, policy: String) async throws -> MSALAccount? {
        try await app.allAccounts().first { $0.homeAccountId?.objectId?.hasSuffix(policy.lowercased()) == true }
    }

    static func interactive(
        _ app: MSALPublicClientApplication, authority: MSALB2CAuthority, account: MSALAccount? = nil,
        prompt: MSALPromptType? = nil
    ) async -> (MSALResult?, (any Error)?) {
        let parameters = MSALInteractiveTokenParameters(scopes: scopes, webviewParameters: MSALWebviewParameters())
        if let prompt { parameters.promptType = prompt }
        parameters.authority = authority
        parameters.account = account
        return await withCheckedContinuation { continuation in
            app.acquireToken(with: parameters) { result, error in continuation.resume(returning: (result, error)) }
        }
    }

    @Test("sign in, edit the profile, refresh silently per policy, reset a forgotten password, sign out")
    func b2cSample() async throws {
        try await TutorialEnvironment.with(Self.emily, .editProfile(displayName: "Emily B.")) { env in
            let signIn = try Self.authority(env, "B2C_1_signupsignin")
            let editProfile = try Self.authority(env, "B2C_1_profileedit")
            let reset = try Self.authority(env, "B2C_1_passwordreset")
            let configuration = MSALPublicClientApplicationConfig(
                clientId: Directory.DemoIDs.b2cPublicClient, redirectUri: nil, authority: signIn)
            configuration.knownAuthorities = [signIn, editProfile, reset]
            env.configure(configuration)
            let app = try MSALPublicClientApplication(configuration: configuration)

            let (signedIn, signInError) = await Self.interactive(app, authority: signIn, prompt: .selectAccount)
            #expect(signInError == nil)
            #expect(signedIn?.account.homeAccountId?.objectId?.hasSuffix("b2c_1_signupsignin") == true)
            #expect(signedIn?.account.homeAccountId?.tenantId == Directory.DemoIDs.b2cTenant)

            let (edited, editError) = await Self.interactive(
                app, authority: editProfile, account: try await Self.account(app, policy: "B2C_1_profileedit"))
            #expect(editError == nil)
            #expect(edited?.account.accountClaims?["name"] as? String == "Emily B.")
            #expect(try await app.allAccounts().count == 2)

            let account = try #require(try await Self.account(app, policy: "B2C_1_signupsignin"))
            let silent = MSALSilentTokenParameters(scopes: Self.scopes, account: account)
            silent.authority = signIn
            let cached = try await app.acquireTokenSilent(with: silent)
            #expect(cached.accessToken == signedIn?.accessToken)
            env.clock.advance(by: 3600)
            let refreshed = try await app.acquireTokenSilent(with: silent)
            #expect(refreshed.accessToken != signedIn?.accessToken)
            #expect(refreshed.account.identifier == account.identifier)

            env.user.then(.forgotPassword)
            env.user.then(.resetPassword(email: Directory.DemoIDs.b2cUser, newPassword: "Emily-New-Pass10"))
            let (_, forgot) = await Self.interactive(app, authority: signIn, prompt: .login)
            let nsError = try #require(forgot) as NSError
            #expect(nsError.domain == MSALErrorDomain)
            #expect(nsError.code == MSALError.userCanceled.rawValue)
            #expect(nsError.userInfo[MSALOAuthErrorKey] as? String == "access_denied")
            let description = try #require(nsError.userInfo[MSALErrorDescriptionKey] as? String)
            #expect(description.contains("AADB2C90118"))
            let (afterReset, resetError) = await Self.interactive(app, authority: reset)
            #expect(resetError == nil)
            #expect(afterReset?.account.homeAccountId?.objectId?.hasSuffix("b2c_1_passwordreset") == true)

            for account in try await app.allAccounts() { try await app.remove(account) }
            #expect(try await app.allAccounts().isEmpty)
        }
    }
}
