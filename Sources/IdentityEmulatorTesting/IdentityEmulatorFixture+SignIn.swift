import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL

extension IdentityEmulatorFixture {
    /// A public client application of the directory's, signing in against the emulator: its interactive sign-ins go
    /// to a scripted user (no browser) who signs in as told and consents.
    ///
    /// - Parameters:
    ///   - clientID: the application (the demo directory's public client by default).
    ///   - tenant: the authority's tenant, `organizations` by default.
    ///   - users: who signs in on each interactive sign-in, in turn (username and password).
    /// - Throws: ``MSALError`` for a configuration MSAL refuses.
    public func publicClient(
        clientID: String = Directory.DemoIDs.publicClient, tenant: String = "organizations",
        signingIn users: [(username: String, password: String)] = []
    ) throws -> PublicClientApplication {
        var configuration = try PublicClientApplicationConfiguration(
            clientID: clientID, authority: try authority(tenant))
        configuration.transport = transport
        configuration.browser = AutomatedUser(
            http: http, choices: users.map { .signIn(username: $0.username, password: $0.password) })
        return try PublicClientApplication(configuration: configuration)
    }

    /// Signs `username` in interactively (authorization code with PKCE, the scripted user at the emulator's pages)
    /// and returns the application, ready for silent calls, and its first result.
    ///
    ///     let (app, result) = try await emulator.signIn("MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")
    ///     let again = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: result.account))
    ///
    /// - Throws: ``IdentityEmulatorFixtureError`` when the sign-in page refuses the user (a wrong password, an
    ///   unknown user: the emulator's error quoted); ``MSALError`` when MSAL refuses the result.
    public func signIn(
        _ username: String, password: String, scopes: [String] = ["User.Read"],
        clientID: String = Directory.DemoIDs.publicClient, tenant: String = "organizations"
    ) async throws -> (app: PublicClientApplication, result: AuthenticationResult) {
        let app = try publicClient(clientID: clientID, tenant: tenant, signingIn: [(username, password)])
        do {
            return (app, try await app.acquireTokenInteractively(InteractiveParameters(scopes: scopes)))
        } catch let error as AutomationError {
            throw IdentityEmulatorFixtureError(description: error.description)
        }
    }
}
