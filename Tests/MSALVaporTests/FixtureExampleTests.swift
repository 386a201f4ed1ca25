import IdentityEmulator
import IdentityEmulatorTesting
import MSAL
import MSALVapor
import Testing
import VaporTesting

/// The demo directory's to-do API on Vapor: a user with `ToDoList.Read` gets their list, a daemon's token without
/// the scope is refused, and a real sign-in's token (no browser) is accepted too.
@Suite(.identityEmulator())
struct ToDoRouteTests {
    let api = Directory.DemoIDs.api1
    let customers = Directory.DemoIDs.externalTenant

    @Test func aReaderGetsTheirList() async throws {
        let emulator = try #require(IdentityEmulatorFixture.current)
        try await withApp { app in
            app.msal.accessTokens = try emulator.accessTokenValidator(api: api)
            app.requiringAccessToken(scopes: ["ToDoList.Read"]).get("todolist") { req in
                "the list of \(try req.msal.caller.objectID ?? "?")"
            }
            let jane = try await emulator.accessToken(
                api: api, user: "jane@example.com", scopes: ["ToDoList.Read"], tenant: customers)
            try await app.testing().test(.GET, "todolist", headers: ["Authorization": "Bearer \(jane)"]) {
                #expect($0.status == .ok)
                #expect($0.body.string == "the list of 7a9c1e3f-5b7d-4f9a-8c2e-4f6a8c0e2b4d")
            }
            let (_, signedIn) = try await emulator.signIn(
                "jane@example.com", password: "Jane-Demo-Pass4", scopes: ["api://\(api)/ToDoList.Read"],
                clientID: Directory.DemoIDs.externalPublicClient, tenant: customers)
            try await app.testing().test(
                .GET, "todolist", headers: ["Authorization": "Bearer \(signedIn.accessToken)"]
            ) { #expect($0.status == .ok) }
            try await app.testing().test(.GET, "todolist") { #expect($0.status == .unauthorized) }
        }
    }
}
