import Foundation
import IdentityEmulator
import Testing

@Suite("On-behalf-of: API 1 calls Graph and API 2 as the signed-in user")
struct OnBehalfOfTests {
    static let jane = "7a9c1e3f-5b7d-4f9a-8c2e-4f6a8c0e2b4d"
    static let external = "contosocustomers.onmicrosoft.com"

    /// Jane's access token for `scope` through the External ID public client (ROPC).
    private func janeToken(_ emulator: TestEmulator, scope: String? = nil) async throws -> HTTPResult {
        try await emulator.passwordGrant(
            user: "jane@example.com", password: "Jane-Demo-Pass4",
            scope: scope ?? "api://\(emulator.ids.api1)/ToDoList.Read openid profile offline_access",
            client: emulator.ids.externalPublicClient, tenant: Self.external)
    }

    /// API 1 redeems `assertion` for `scope` (decorated as MSALs do), authenticated by its secret.
    private func onBehalfOf(
        _ emulator: TestEmulator, assertion: String, scope: String, extra: [(String, String)] = []
    ) async throws -> HTTPResult {
        try await emulator.token(
            Self.external,
            [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", emulator.ids.api1),
                ("client_secret", Directory.DemoIDs.api1Secret), ("assertion", assertion),
                ("requested_token_use", "on_behalf_of"), ("scope", "\(scope) openid profile offline_access"),
                ("client_info", "1"),
            ] + extra)
    }

    @Test("API 1 trades Jane's token for a Graph User.Read token for Jane, with a refresh token API 1 can redeem")
    func graph() async throws {
        try await TestEmulator.with { emulator in
            let incoming = try #require(try await janeToken(emulator).string("access_token"))
            let result = try await onBehalfOf(
                emulator, assertion: incoming, scope: "https://graph.microsoft.com/User.Read")
            #expect(result.status == 200, "\(result.body)")
            try Golden.expectShape(result.body, matches: "token-success")
            let claims = try JWTInspection.claims(try #require(try result.string("access_token")))
            // A v1.0 token (Graph's) names the resource as the scope did.
            #expect(claims["aud"] as? String == "https://graph.microsoft.com")
            #expect(claims["oid"] as? String == Self.jane)
            #expect(claims["appid"] as? String == emulator.ids.api1)
            #expect(claims["appidacr"] as? String == "1")
            #expect((claims["scp"] as? String)?.contains("User.Read") == true)
            let me = try await emulator.get(
                "/v1.0/me", headers: [("Authorization", "Bearer \(try #require(try result.string("access_token")))")])
            #expect(try me.string("userPrincipalName") == "jane@example.com")

            let refresh = try await emulator.token(
                Self.external,
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.api1),
                    ("client_secret", Directory.DemoIDs.api1Secret),
                    ("refresh_token", try #require(try result.string("refresh_token"))),
                    ("scope", "https://graph.microsoft.com/User.Read offline_access"),
                ])
            #expect(refresh.status == 200)
        }
    }

    @Test("API 2 ToDoList.Read is admin-consented for API 1; ToDoList.ReadWrite needs consent nobody gave (65001)")
    func consent() async throws {
        try await TestEmulator.with { emulator in
            let incoming = try #require(try await janeToken(emulator).string("access_token"))
            let read = try await onBehalfOf(
                emulator, assertion: incoming, scope: "api://\(emulator.ids.api2)/ToDoList.Read")
            #expect(read.status == 200)
            let claims = try JWTInspection.claims(try #require(try read.string("access_token")))
            #expect(claims["aud"] as? String == emulator.ids.api2)
            #expect(claims["azp"] as? String == emulator.ids.api1)
            #expect(claims["azpacr"] as? String == "1")

            let write = try await onBehalfOf(
                emulator, assertion: incoming, scope: "api://\(emulator.ids.api2)/ToDoList.ReadWrite")
            #expect(write.status == 400)
            #expect(try write.errorCode == 65001)
            #expect(try write.string("error") == "invalid_grant")
            #expect(try write.string("suberror") == "consent_required")
        }
    }

    @Test("refused assertions: an ID token, an app token, another audience, a bad signature, not a JWT")
    func refusedAssertions() async throws {
        try await TestEmulator.with { emulator in
            let jane = try await janeToken(emulator)
            let graph = "https://graph.microsoft.com/User.Read"
            let idToken = try #require(try jane.string("id_token"))
            let asID = try await onBehalfOf(emulator, assertion: idToken, scope: graph)
            #expect(try asID.errorCode == 240002)
            #expect(try asID.string("error") == "invalid_grant")

            let app = try #require(
                try await emulator.daemonToken(scope: "api://\(emulator.ids.api1)/.default").string("access_token"))
            let asApp = try await onBehalfOf(emulator, assertion: app, scope: graph)
            #expect(try asApp.errorCode == 7_000_114)
            #expect(
                asApp.body.contains(
                    "Application '\(emulator.ids.api1)' isn't allowed to make application on-behalf-of calls."))

            let forAPI2 = try #require(
                try await janeToken(emulator, scope: "api://\(emulator.ids.api2)/ToDoList.Read").string("access_token"))
            let other = try await onBehalfOf(emulator, assertion: forAPI2, scope: graph)
            #expect(try other.errorCode == 500131)
            #expect(other.body.contains("The audience in the assertion was '\(emulator.ids.api2)'"))

            let incoming = try #require(try jane.string("access_token"))
            let forged = String(incoming.dropLast(6)) + (incoming.hasSuffix("AAAAAA") ? "BBBBBB" : "AAAAAA")
            let signature = try await onBehalfOf(emulator, assertion: forged, scope: graph)
            #expect(try signature.errorCode == 50013)
            #expect(try signature.string("error") == "invalid_grant")
            #expect(
                try signature.string("error_description")?.hasPrefix(
                    "AADSTS50013: Assertion failed signature validation.") == true)

            #expect(try await onBehalfOf(emulator, assertion: "not-a-jwt", scope: graph).errorCode == 50027)
        }
    }

    @Test("an expired assertion gets 500133; after a revocation, 50173")
    func expiredAndRevoked() async throws {
        try await TestEmulator.with { emulator in
            let incoming = try #require(try await janeToken(emulator).string("access_token"))
            try await emulator.setClockOffset(1)
            #expect(try await emulator.post("/_emulator/users/jane@example.com/revoke", json: "{}").status == 200)
            let revoked = try await onBehalfOf(
                emulator, assertion: incoming, scope: "https://graph.microsoft.com/User.Read")
            #expect(try revoked.errorCode == 50173)

            try await emulator.setClockOffset(6000)
            let expired = try await onBehalfOf(
                emulator, assertion: incoming, scope: "https://graph.microsoft.com/User.Read")
            #expect(try expired.errorCode == 500133)
            #expect(try expired.string("error") == "invalid_grant")
            #expect(expired.body.contains("Assertion isn't within its valid time range."))
        }
    }

    @Test("the multifactorRequired scenario answers interaction_required 50079 with a claims challenge string")
    func multifactor() async throws {
        try await TestEmulator.with { emulator in
            let incoming = try #require(try await janeToken(emulator).string("access_token"))
            try await emulator.scenario("token", "multifactorRequired")
            let result = try await onBehalfOf(
                emulator, assertion: incoming, scope: "https://graph.microsoft.com/User.Read")
            #expect(result.status == 400)
            #expect(try result.string("error") == "interaction_required")
            #expect(try result.errorCode == 50079)
            let claims = try #require(try result.string("claims"))
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(claims.utf8)) as? [String: Any])
            let polids = (parsed["access_token"] as? [String: Any])?["polids"] as? [String: Any]
            #expect(polids?["essential"] as? Bool == true)
            #expect(polids?["values"] as? [String] == ["9ab03e19-ed42-4168-b6b7-7001fb3e933a"])
            let again = try await onBehalfOf(
                emulator, assertion: incoming, scope: "https://graph.microsoft.com/User.Read")
            #expect(again.status == 200)
        }
    }

    @Test("the request: requested_token_use is required; a public client cannot be a middle tier")
    func requestShape() async throws {
        try await TestEmulator.with { emulator in
            let incoming = try #require(try await janeToken(emulator).string("access_token"))
            let missing = try await emulator.token(
                Self.external,
                [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", emulator.ids.api1),
                    ("client_secret", Directory.DemoIDs.api1Secret), ("assertion", incoming), ("scope", "User.Read"),
                ])
            #expect(try missing.errorCode == 900_144)
            let publicClient = try await emulator.token(
                Self.external,
                [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                    ("client_id", emulator.ids.externalPublicClient), ("assertion", incoming),
                    ("requested_token_use", "on_behalf_of"), ("scope", "User.Read"),
                ])
            #expect(try publicClient.errorCode == 7_000_218)
        }
    }
}
