import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import Testing

@Suite("End to end: interactive sign-in, silent tokens, accounts, sign-out (against the emulator)")
struct SignInEndToEndTests {
    @Test("first sign-in with consent: a validated result, an account, and a cached token")
    func firstSignIn() async throws {
        try await Harness.with { h in
            let user = h.user(Harness.megan)
            let app = try h.app(user: user)
            let scope = "api://\(h.ids.api1)/ToDoList.Read"
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: [scope]))
            #expect(user.pagesSeen == ["signin", "consent"])
            #expect(result.scopes.contains(scope))
            #expect(result.authorizationHeader == "Bearer \(result.accessToken)")
            #expect(result.expiresOn == h.clock.now().addingTimeInterval(3600))
            #expect(result.account.username == "MeganB@contoso.onmicrosoft.com")
            #expect(
                result.account.homeAccountID.identifier == "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f.\(h.ids.contosoTenant)"
            )
            #expect(result.account.accountClaims["name"] == "Megan Bowen")
            #expect(result.tenantProfile.tenantID == h.ids.contosoTenant)
            #expect(result.tenantProfile.isHomeTenantProfile)
            #expect(result.source == .identityProvider)
            #expect(result.idToken != nil)
            #expect(try await app.accounts().map(\.username) == ["MeganB@contoso.onmicrosoft.com"])

            let silent = try await app.acquireTokenSilently(SilentParameters(scopes: [scope], account: result.account))
            #expect(silent.source == .cache)
            #expect(silent.accessToken == result.accessToken)
            #expect(try await h.tokenRequests() == ["authorization_code"])
        }
    }

    @Test("silent refresh after expiry uses the refresh token (injected clock)")
    func refreshAfterExpiry() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            h.clock.advance(by: 3600 - 200)
            let refreshed = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: first.account))
            #expect(refreshed.source == .identityProvider)
            #expect(refreshed.accessToken != first.accessToken)
            #expect(try await h.tokenRequests() == ["authorization_code", "refresh_token"])
            let hit = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["user.read"], account: first.account))
            #expect(hit.source == .cache)
        }
    }

    @Test("a revoked refresh token gives interactionRequired with the server's details")
    func revokedRefreshToken() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            h.clock.advance(by: 1)
            try await h.revoke("MeganB@contoso.onmicrosoft.com")
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: first.account, forceRefresh: true))
            }
            #expect(error.code == .interactionRequired)
            #expect(error.oauthError == "invalid_grant")
            #expect(error.oauthSubError == "bad_token")
            #expect(error.stsErrorCodes == [50173])
            #expect(error.errorCode == -50002)
            #expect(MSALError.errorDomain == "MSALErrorDomain")
        }
    }

    @Test("select_account with two users, then login and none prompts")
    func prompts() async throws {
        try await Harness.with { h in
            let user = h.user(Harness.megan)
            let app = try h.app(user: user)
            _ = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            user.then(Harness.adele)
            let adele = try await app.acquireTokenInteractively(
                InteractiveParameters(scopes: ["User.Read"], prompt: .login))
            #expect(adele.account.username == "AdeleV@contoso.onmicrosoft.com")
            #expect(try await app.accounts().count == 2)

            user.then(.pick(objectID: "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f"))
            let picked = try await app.acquireTokenInteractively(
                InteractiveParameters(scopes: ["User.Read"], prompt: .selectAccount))
            #expect(picked.account.username == "MeganB@contoso.onmicrosoft.com")
            #expect(user.pagesSeen.last == "picker")

            let none = try await app.acquireTokenInteractively(
                InteractiveParameters(
                    scopes: ["User.Read"], prompt: Prompt.none, loginHint: "AdeleV@contoso.onmicrosoft.com"))
            #expect(none.account.username == "AdeleV@contoso.onmicrosoft.com")
        }
    }

    @Test("cancelling in the browser is userCanceled")
    func cancel() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(.cancel))
            let cancelled = try await #require(throws: MSALError.self) {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
            #expect(cancelled.code == .userCanceled)
        }
    }

    @Test("sign-out forgets the account; silent then needs interaction")
    func signOut() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            try await app.signOut(first.account)
            #expect(try await app.accounts().isEmpty)
            let error = try await #require(throws: MSALError.self) {
                try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: first.account))
            }
            #expect(error.code == .interactionRequired)
            #expect(app.deviceInformation().deviceMode == .private)
        }
    }

    @Test("a guest tenant adds a tenant profile to the same account")
    func multiTenantAccount() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let home = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            var parameters = SilentParameters(scopes: ["User.Read"], account: home.account)
            parameters.authority = try h.authority("fabrikam.onmicrosoft.com")
            let guest = try await app.acquireTokenSilently(parameters)
            #expect(guest.tenantProfile.tenantID == h.ids.fabrikamTenant)
            #expect(guest.tenantProfile.localAccountID == "a81f3c5e-7d2b-4e96-b0a4-c3e5f7a9d1b2")
            #expect(home.tenantProfile.localAccountID == home.account.homeAccountID.objectID)
            #expect(guest.account.identifier == home.account.identifier)
            #expect(!guest.tenantProfile.isHomeTenantProfile)
            let accounts = try await app.accounts()
            #expect(accounts.count == 1)
            #expect(accounts.first?.tenantProfiles.count == 2)
        }
    }

    @Test("100 concurrent silent calls for an expired token make exactly one refresh request")
    func singleFlight() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan))
            let first = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            h.clock.advance(by: 4000)
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await app.acquireTokenSilently(
                            SilentParameters(scopes: ["User.Read"], account: first.account)
                        ).accessToken
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            #expect(try await h.tokenRequests().filter { $0 == "refresh_token" }.count == 1)
        }
    }
}
