import Hummingbird
import HummingbirdTesting
import IdentityEmulator
import IdentityEmulatorTesting
import MSAL
import MSALHummingbird
import Testing

/// A directory written in code: one tenant, one user, the API.
enum Fabrikam {
    static let tenant = "5f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"
    static let api = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
    static let directory = Directory(
        tenants: [Tenant(id: tenant, domain: "fabrikam.onmicrosoft.com", displayName: "Fabrikam", kind: .workforce)],
        users: [
            User(
                id: "6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e", tenant: tenant,
                userPrincipalName: "ana@fabrikam.onmicrosoft.com", password: "Ana-Test-Pass1", displayName: "Ana")
        ],
        applications: [
            Application(
                clientId: api, displayName: "Orders API", tenant: tenant, kind: .api, identifierUri: "api://\(api)",
                scopes: ["Orders.Read"])
        ])
}

/// An orders API on Hummingbird, tested against an emulator with that directory: a reader's token is accepted, a
/// caller without one is challenged.
@Suite(.identityEmulator(directory: Fabrikam.directory))
struct OrdersAPITests {
    struct Context: AccessTokenRequestContext {
        var coreContext: CoreRequestContextStorage
        var accessToken: ValidatedAccessToken?
        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    }

    @Test func aReaderGetsTheOrders() async throws {
        let emulator = try #require(IdentityEmulatorFixture.current)
        let router = Router(context: Context.self)
        router.group("orders")
            .add(middleware: BearerTokenMiddleware(validator: try emulator.accessTokenValidator(api: Fabrikam.api)))
            .add(middleware: RequiredPermissionMiddleware(scopes: ["Orders.Read"]))
            .get { _, context in "orders of \(try context.requireAccessToken().objectID ?? "?")" }
        let token = try await emulator.accessToken(
            api: Fabrikam.api, user: "ana@fabrikam.onmicrosoft.com", scopes: ["Orders.Read"], tenant: Fabrikam.tenant)

        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/orders", method: .get, headers: [.authorization: "Bearer \(token)"]) {
                #expect($0.status == .ok)
                #expect(String(buffer: $0.body) == "orders of 6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e")
            }
            try await client.execute(uri: "/orders", method: .get) { #expect($0.status == .unauthorized) }
        }
    }
}
