import Foundation
import IdentityEmulator
import Testing

@Suite("Client credentials: roles, token formats, scope errors, and the sample APIs' app roles")
struct AppTokenTests {
    @Test(
        "API 1 gets a v2.0 app token with the granted role; Graph a v1.0 one; OpenID scopes next to .default are ignored"
    )
    func rolesAndFormats() async throws {
        try await TestEmulator.with { emulator in
            let api = try await emulator.daemonToken(
                scope: "api://\(emulator.ids.api1)/.default openid profile offline_access")
            #expect(api.status == 200)
            try Golden.expectShape(api.body, matches: "token-app-only")
            let v2 = try JWTInspection.claims(try #require(try api.string("access_token")))
            #expect(v2["aud"] as? String == emulator.ids.api1)
            #expect(
                v2["iss"] as? String
                    == "\(emulator.running.issuerOrigin.absoluteString)/\(emulator.ids.contosoTenant)/v2.0")
            #expect(v2["azp"] as? String == emulator.ids.confidentialClient)
            #expect(v2["roles"] as? [String] == ["ToDoList.Read.All"])
            #expect(v2["idtyp"] as? String == "app")
            #expect(v2["ver"] as? String == "2.0")
            #expect(v2["appid"] == nil)

            let graph = try await emulator.daemonToken(scope: "https://graph.microsoft.com/.default")
            let v1 = try JWTInspection.claims(try #require(try graph.string("access_token")))
            #expect(v1["iss"] as? String == "https://sts.windows.net/\(emulator.ids.contosoTenant)/")
            #expect(v1["appid"] as? String == emulator.ids.confidentialClient)
            #expect(v1["appidacr"] as? String == "1")
            #expect(v1["ver"] as? String == "1.0")
            #expect(v1["idtyp"] as? String == "app")
            #expect(v1["roles"] as? [String] == ["User.Read.All"])
            #expect(v1["azp"] == nil)
        }
    }

    @Test("no roles claim when nothing is granted; the sample API then answers 403 insufficient_scope")
    func noRoles() async throws {
        try await TestEmulator.with { emulator in
            let token = try #require(
                try await emulator.daemonToken(scope: "api://\(emulator.ids.api2)/.default").string("access_token"))
            #expect(try JWTInspection.claims(token)["roles"] == nil)
            let refused = try await emulator.get("/api2/todolist", headers: [("Authorization", "Bearer \(token)")])
            #expect(refused.status == 403)
            #expect(try refused.string("error") == "insufficient_scope")
            #expect(refused.header("WWW-Authenticate")?.contains("insufficient_scope") == true)
        }
    }

    @Test("sample API 1 accepts the daemon's app token and names its roles and the app")
    func sampleAPIAcceptsRole() async throws {
        try await TestEmulator.with { emulator in
            let token = try #require(
                try await emulator.daemonToken(scope: "api://\(emulator.ids.api1)/.default").string("access_token"))
            let result = try await emulator.get("/api1/todolist", headers: [("Authorization", "Bearer \(token)")])
            #expect(result.status == 200)
            #expect(try result.json["roles"] as? [String] == ["ToDoList.Read.All"])
            #expect(try result.string("app") == emulator.ids.confidentialClient)
        }
    }

    @Test("an app token with another API's role is refused by API 1")
    func sampleAPIRefusesOtherRole() async throws {
        var directory = Directory.demo
        let client = "7b2c3d4e-5f60-4718-a9b0-c1d2e3f4a5b6"
        directory.applications.append(
            Application(
                clientId: client, displayName: "Graph-only daemon", tenant: Directory.DemoIDs.contosoTenant,
                kind: .confidentialClient, secret: "graph-only-secret",
                grantedAppRoles: ["https://graph.microsoft.com/User.Read.All"]))
        let configure: (inout EmulatorConfiguration) -> Void = { $0.directory = directory }
        try await TestEmulator.with(configure) { emulator in
            let result = try await emulator.token(
                emulator.ids.contosoTenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", client), ("client_secret", "graph-only-secret"),
                    ("scope", "api://\(emulator.ids.api1)/.default"),
                ])
            let token = try #require(try result.string("access_token"))
            #expect(try JWTInspection.claims(token)["roles"] == nil)
            let refused = try await emulator.get("/api1/todolist", headers: [("Authorization", "Bearer \(token)")])
            #expect(refused.status == 403)
        }
    }

    @Test(
        "scope and tenant errors of client credentials",
        arguments: [
            (
                "User.Read", "contoso", 1_002_012, "invalid_scope",
                "The provided value for scope User.Read is not valid."
            ),
            (
                "https://graph.microsoft.com/.default api://e3f9a6d2-1c8b-4a7e-b5d0-9c2e4f6a8b13/.default", "contoso",
                700022, "invalid_scope",
                "The provided value for the input parameter scope is not valid because it contains more than one resource."
            ),
            (
                "https://nothing.example/.default", "contoso", 500011, "invalid_resource",
                "The resource principal named https://nothing.example was not found in the tenant named Contoso."
            ),
            (
                "https://graph.microsoft.com/.default", "common", 9_001_023, "invalid_request",
                "The grant type isn't supported over the /common or /consumers endpoints."
            ),
        ])
    func scopeErrors(scope: String, tenant: String, code: Int, error: String, text: String) async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.daemonToken(
                scope: scope, tenant: tenant == "contoso" ? emulator.ids.contosoTenant : tenant)
            #expect(result.status == 400)
            #expect(try result.errorCode == code)
            #expect(try result.string("error") == error)
            #expect(
                try result.string("error_description")?.hasPrefix("AADSTS\(code): \(text)") == true, "\(result.body)")
        }
    }
}
