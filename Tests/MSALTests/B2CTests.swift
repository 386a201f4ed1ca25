import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import Testing

@Suite("Azure AD B2C: user flows as authorities, an account per policy (against the emulator's B2C tenant)")
struct B2CTests {
    static let tenant = "fabrikamb2c.onmicrosoft.com"
    static let objectID = "1b3d5f7a-9c2e-4b4d-8f6a-0c2e4a6b8d0f"
    static let scope = "https://fabrikamb2c.onmicrosoft.com/demoapi/demo.read"
    static let emily = AutomatedUser.Choice.signIn(
        username: Directory.DemoIDs.b2cUser, password: Directory.DemoIDs.b2cUserPassword)

    static func authority(_ h: Harness, _ policy: String, tfp: Bool = false) throws -> Authority {
        try Authority("\(h.emulator.baseURL.absoluteString)/\(tfp ? "tfp/" : "")\(tenant)/\(policy)")
    }

    static func app(_ h: Harness, _ user: AutomatedUser, policy: String = "B2C_1_signupsignin", tfp: Bool = false)
        throws -> PublicClientApplication
    {
        try h.app(client: h.ids.b2cPublicClient, tenant: "\(tfp ? "tfp/" : "")\(tenant)/\(policy)", user: user)
    }

    static func claims(_ token: String?) throws -> [String: Any] {
        let parts = try #require(token).split(separator: ".")
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try #require(Data(base64Encoded: payload))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(
        "sign-up or sign-in policy: the account is {oid}-{policy}.{tenant id}, tokens carry tfp, cached as MSAL files them"
    )
    func signUpOrSignIn() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let user = h.user(Self.emily)
            let app = try h.app(
                client: h.ids.b2cPublicClient, tenant: "\(Self.tenant)/B2C_1_signupsignin", user: user, cache: cache)
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: [Self.scope]))
            #expect(user.pagesSeen == ["signin"])
            #expect(result.account.homeAccountID.identifier == "\(Self.objectID)-b2c_1_signupsignin.\(h.ids.b2cTenant)")
            #expect(result.account.homeAccountID.objectID == "\(Self.objectID)-b2c_1_signupsignin")
            #expect(result.account.homeAccountID.tenantID == h.ids.b2cTenant)
            #expect(result.tenantProfile.tenantID == Self.tenant)
            let idToken = try Self.claims(result.idToken)
            #expect(idToken["tfp"] as? String == "B2C_1_signupsignin")
            #expect(idToken["ver"] as? String == "1.0")
            #expect(idToken["tid"] == nil)
            #expect(idToken["emails"] as? [String] == [Directory.DemoIDs.b2cUser])
            #expect(try Self.claims(result.accessToken)["scp"] as? String == "demo.read")

            let json = try #require(
                try JSONSerialization.jsonObject(with: try await cache.serialize()) as? [String: Any])
            let home = "\(Self.objectID)-b2c_1_signupsignin.\(h.ids.b2cTenant)"
            let accounts = try #require(json["Account"] as? [String: [String: Any]])
            #expect(accounts.count == 1)
            let account = try #require(accounts.values.first)
            #expect(account["home_account_id"] as? String == home)
            #expect(account["environment"] as? String == "127.0.0.1")
            #expect(account["realm"] as? String == Self.tenant)
            #expect(account["local_account_id"] as? String == Self.objectID)
            let accessToken = try #require((json["AccessToken"] as? [String: [String: Any]])?.values.first)
            #expect(accessToken["realm"] as? String == Self.tenant)
            #expect(accessToken["target"] as? String == Self.scope)
            #expect(accessToken["home_account_id"] as? String == home)
            #expect((json["RefreshToken"] as? [String: Any])?.count == 1)

            let cached = try await app.acquireTokenSilently(
                SilentParameters(scopes: [Self.scope], account: result.account))
            #expect(cached.source == .cache)
            h.clock.advance(by: 3600 - 200)
            let refreshed = try await app.acquireTokenSilently(
                SilentParameters(scopes: [Self.scope], account: result.account))
            #expect(refreshed.source == .identityProvider)
            #expect(refreshed.account.identifier == result.account.identifier)
            #expect(try Self.claims(refreshed.idToken)["tfp"] as? String == "B2C_1_signupsignin")
            #expect(try await h.tokenRequests() == ["authorization_code", "refresh_token"])
            let policyRequests = try await h.admin("GET", "requests?path=/b2c_1_signupsignin/oauth2/v2.0/token")
            #expect((policyRequests["requests"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("Forgot your password: AADB2C90118 as userCanceled, then the reset policy signs in with the new password")
    func passwordReset() async throws {
        try await Harness.with { h in
            let newPassword = "Emily-New-Pass10"
            let user = h.user(
                .forgotPassword, .resetPassword(email: Directory.DemoIDs.b2cUser, newPassword: newPassword))
            let app = try Self.app(h, user)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: [Self.scope]))
            }
            #expect(error.code == .userCanceled)
            #expect(error.oauthError == "access_denied")
            #expect(error.b2cErrorCode == "AADB2C90118")
            #expect(error.isB2CPasswordResetRequested)

            var reset = InteractiveParameters(scopes: [Self.scope])
            reset.authority = try Self.authority(h, "B2C_1_passwordreset")
            let result = try await app.acquireTokenInteractively(reset)
            #expect(user.pagesSeen == ["signin", "passwordreset"])
            #expect(result.account.homeAccountID.objectID == "\(Self.objectID)-b2c_1_passwordreset")
            #expect(try Self.claims(result.idToken)["tfp"] as? String == "B2C_1_passwordreset")

            // Another browser (no session) signs in through the sign-up or sign-in policy with the new password.
            let other = try Self.app(
                h, h.user(.signIn(username: Directory.DemoIDs.b2cUser, password: newPassword)))
            let signedIn = try await other.acquireTokenInteractively(InteractiveParameters(scopes: [Self.scope]))
            #expect(signedIn.account.homeAccountID.objectID == "\(Self.objectID)-b2c_1_signupsignin")
        }
    }

    @Test("cancelling a user flow is userCanceled without a B2C code")
    func cancel() async throws {
        try await Harness.with { h in
            let app = try Self.app(h, h.user(.cancel))
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: [Self.scope]))
            }
            #expect(error.code == .userCanceled)
            #expect(error.b2cErrorCode == nil)
            #expect(!error.isB2CPasswordResetRequested)
        }
    }

    @Test("profile edit through the browser session is a second account of the same user; silent calls stay per policy")
    func profileEditAndSilentPerPolicy() async throws {
        try await Harness.with { h in
            let user = h.user(Self.emily, .editProfile(displayName: "Emily B."))
            let app = try Self.app(h, user)
            let signIn = try await app.acquireTokenInteractively(InteractiveParameters(scopes: [Self.scope]))
            var edit = InteractiveParameters(scopes: [Self.scope])
            let profileEdit = try Self.authority(h, "B2C_1_profileedit")
            edit.authority = profileEdit
            let edited = try await app.acquireTokenInteractively(edit)
            #expect(user.pagesSeen == ["signin", "profileedit"])
            #expect(edited.account.homeAccountID.objectID == "\(Self.objectID)-b2c_1_profileedit")
            #expect(try Self.claims(edited.idToken)["name"] as? String == "Emily B.")
            #expect(try Self.claims(edited.idToken)["tfp"] as? String == "B2C_1_profileedit")
            let accounts = try await app.accounts()
            #expect(
                Set(accounts.map(\.identifier)) == [
                    "\(Self.objectID)-b2c_1_signupsignin.\(h.ids.b2cTenant)",
                    "\(Self.objectID)-b2c_1_profileedit.\(h.ids.b2cTenant)",
                ])

            var silentEdit = SilentParameters(scopes: [Self.scope], account: edited.account)
            silentEdit.authority = profileEdit
            #expect(try await app.acquireTokenSilently(silentEdit).accessToken == edited.accessToken)
            #expect(
                try await app.acquireTokenSilently(SilentParameters(scopes: [Self.scope], account: signIn.account))
                    .accessToken == signIn.accessToken)

            h.clock.advance(by: 1)
            silentEdit.forceRefresh = true
            let refreshedEdit = try await app.acquireTokenSilently(silentEdit)
            #expect(try Self.claims(refreshedEdit.idToken)["tfp"] as? String == "B2C_1_profileedit")
            #expect(refreshedEdit.account.identifier == edited.account.identifier)
            let refreshedSignIn = try await app.acquireTokenSilently(
                SilentParameters(scopes: [Self.scope], account: signIn.account, forceRefresh: true))
            #expect(try Self.claims(refreshedSignIn.idToken)["tfp"] as? String == "B2C_1_signupsignin")
            let editRequests = try await h.admin("GET", "requests?path=/b2c_1_profileedit/oauth2/v2.0/token")
            #expect((editRequests["requests"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("the legacy /tfp/{tenant}/{policy} authority signs in through the same user flow")
    func tfpAuthority() async throws {
        try await Harness.with { h in
            let authority = try Self.authority(h, "B2C_1_signupsignin", tfp: true)
            #expect(authority.kind == .b2c)
            let app = try Self.app(h, h.user(Self.emily), tfp: true)
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: [Self.scope]))
            #expect(result.account.homeAccountID.objectID == "\(Self.objectID)-b2c_1_signupsignin")
            let discovery = try await h.admin(
                "GET", "requests?path=/tfp/\(Self.tenant)/B2C_1_signupsignin/v2.0/.well-known/openid-configuration")
            #expect((discovery["requests"] as? [[String: Any]])?.count == 1)
            #expect(
                try await app.acquireTokenSilently(SilentParameters(scopes: [Self.scope], account: result.account))
                    .source == .cache)
        }
    }

    @Test("a policy the tenant does not have fails discovery")
    func unknownPolicy() async throws {
        try await Harness.with { h in
            let app = try Self.app(h, h.user(Self.emily), policy: "B2C_1_nosuchflow")
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: [Self.scope]))
            }
            #expect(error.code == .failedAuthorityValidation)
            #expect(error.httpStatus == 404)
            #expect(error.message.contains("B2C_1_nosuchflow"))
        }
    }
}
