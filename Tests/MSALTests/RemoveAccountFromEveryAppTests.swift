import Foundation
import IdentityEmulator
import MSAL
import Testing

@Suite("TokenCache.removeAccountFromEveryApp: one sign-out for every app that shares a cache")
struct RemoveAccountFromEveryAppTests {
    @Test("a user signed in to two apps is listed once; forgotten, neither app gets a token without a sign-in")
    func twoApps() async throws {
        try await Harness.with { h in
            let cache = TokenCache()
            let own = try h.app(user: h.user(Harness.megan), cache: cache)
            let kube = try h.app(client: h.ids.aksClient, user: h.user(Harness.megan), cache: cache)
            let graph = try await own.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            let aks = try await kube.acquireTokenInteractively(
                InteractiveParameters(scopes: ["\(h.ids.aksServer)/.default"]))
            #expect(graph.account.identifier == aks.account.identifier)

            let listed = try await cache.accountsOfEveryApp()
            #expect(listed.map(\.identifier) == [graph.account.identifier])
            #expect(listed.map(\.username) == ["MeganB@contoso.onmicrosoft.com"])

            try await cache.removeAccountFromEveryApp(try #require(listed.first))
            #expect(try await cache.accountsOfEveryApp().isEmpty)
            for (app, scopes) in [(own, ["User.Read"]), (kube, ["\(h.ids.aksServer)/.default"])] {
                let silent = SilentParameters(scopes: scopes, account: graph.account, forceRefresh: true)
                let failure: MSALError? = await {
                    do {
                        _ = try await app.acquireTokenSilently(silent)
                        return nil
                    } catch {
                        return error as? MSALError
                    }
                }()
                #expect(failure?.code == .interactionRequired, "\(String(describing: failure))")
            }
            #expect(try await h.tokenRequests() == ["authorization_code", "authorization_code"])
        }
    }
}
