import Foundation
import IdentityEmulator
import Testing

@Suite("Microsoft Graph /me and the sample APIs")
struct GraphAndAPITests {
    @Test("GET /v1.0/me returns Graph's default shape, property order and headers")
    func me() async throws {
        try await TestEmulator.with { emulator in
            let token = try #require(try await emulator.passwordGrant().string("access_token"))
            let result = try await emulator.get(
                "/v1.0/me", headers: [("Authorization", "Bearer \(token)"), ("client-request-id", "abc-123")])
            #expect(result.status == 200)
            try Golden.expectShape(result.body, matches: "graph-me")
            #expect(orderedTopLevelKeys(result.body) == orderedTopLevelKeys(try Golden.text("graph-me")))
            #expect(result.body.contains(#""mobilePhone":null"#))
            #expect(try result.string("id") == "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f")
            #expect(try result.string("@odata.context") == "\(emulator.base)/v1.0/$metadata#users/$entity")
            #expect(result.header("Content-Type")?.hasPrefix("application/json;odata.metadata=minimal") == true)
            #expect(result.header("OData-Version") == "4.0")
            #expect(result.header("client-request-id") == "abc-123")
            #expect(result.header("request-id") != nil)

            let selected = try await emulator.get(
                "/v1.0/me?$select=displayName,givenName", headers: [("Authorization", "Bearer \(token)")])
            #expect(orderedTopLevelKeys(selected.body) == ["@odata.context", "displayName", "givenName"])
        }
    }

    @Test("401 InvalidAuthenticationToken with WWW-Authenticate for missing, malformed, forged or expired tokens")
    func unauthorized() async throws {
        try await TestEmulator.with { emulator in
            let token = try #require(try await emulator.passwordGrant().string("access_token"))
            let forged = String(token.dropLast(4)) + (token.hasSuffix("AAAA") ? "BBBB" : "AAAA")
            for (header, message) in [
                (nil, "Access token is empty."), ("Bearer nodots", "IDX14100"),
                ("Bearer \(forged)", "validation failure"),
            ] {
                let result = try await emulator.get("/v1.0/me", headers: header.map { [("Authorization", $0)] } ?? [])
                #expect(result.status == 401)
                #expect(result.header("WWW-Authenticate")?.hasPrefix(#"Bearer realm="", authorization_uri="#) == true)
                let error = try #require(try result.json["error"] as? [String: any Sendable])
                #expect(error["code"] as? String == "InvalidAuthenticationToken")
                #expect((error["message"] as? String)?.contains(message) == true)
                #expect(error["innerError"] != nil)
            }
            try await emulator.setClockOffset(6000)
            let expired = try await emulator.get("/v1.0/me", headers: [("Authorization", "Bearer \(token)")])
            #expect(expired.status == 401)
            #expect(expired.body.contains("Lifetime validation failed, the token is expired."))
        }
    }

    @Test("403 without User.Read; a token for API 1 is refused by Graph")
    func forbiddenAndWrongAudience() async throws {
        try await TestEmulator.with { emulator in
            let oidcOnly = try #require(
                try await emulator.passwordGrant(scope: "openid profile offline_access").string("access_token"))
            let result = try await emulator.get("/v1.0/me", headers: [("Authorization", "Bearer \(oidcOnly)")])
            #expect(result.status == 403)
            #expect(result.body.contains("Authorization_RequestDenied"))

            let api = try #require(
                try await emulator.passwordGrant(
                    user: "jane@example.com", password: "Jane-Demo-Pass4",
                    scope: "api://\(emulator.ids.api1)/ToDoList.Read openid",
                    client: emulator.ids.externalPublicClient, tenant: "contosocustomers.onmicrosoft.com"
                ).string("access_token"))
            let wrong = try await emulator.get("/v1.0/me", headers: [("Authorization", "Bearer \(api)")])
            #expect(wrong.status == 401)
            #expect(wrong.body.contains("Invalid audience"))
        }
    }

    @Test("after a revocation a cp1 token gets the CAE claims challenge; a plain token keeps working")
    func continuousAccessEvaluation() async throws {
        try await TestEmulator.with { emulator in
            let cp1 = try #require(
                try await emulator.passwordGrant(extra: [("claims", #"{"access_token":{"xms_cc":{"values":["cp1"]}}}"#)]
                ).string("access_token"))
            let plain = try #require(try await emulator.passwordGrant().string("access_token"))
            try await emulator.setClockOffset(2)
            let revoked = try await emulator.post("/_emulator/users/MeganB@contoso.onmicrosoft.com/revoke", json: "{}")
                .json
            let revokedAt = try #require(revoked["revokedAt"] as? Int)

            let challenged = try await emulator.get("/v1.0/me", headers: [("Authorization", "Bearer \(cp1)")])
            #expect(challenged.status == 401)
            try Golden.expectShape(challenged.body, matches: "graph-cae-401")
            let header = try #require(challenged.header("WWW-Authenticate"))
            #expect(header.contains(#"error="insufficient_claims""#))
            let claims = try #require(header.split(separator: "claims=\"").last?.split(separator: "\"").first)
            let decoded = String(decoding: try #require(Data(base64Encoded: String(claims))), as: UTF8.self)
            #expect(decoded == #"{"access_token":{"nbf":{"essential":true, "value":"\#(revokedAt)"}}}"#)

            #expect(try await emulator.get("/v1.0/me", headers: [("Authorization", "Bearer \(plain)")]).status == 200)
        }
    }

    @Test("API 1 and API 2 accept their own tokens and refuse each other's")
    func sampleAPIs() async throws {
        try await TestEmulator.with { emulator in
            func token(_ api: String) async throws -> String {
                try #require(
                    try await emulator.passwordGrant(
                        user: "jane@example.com", password: "Jane-Demo-Pass4",
                        scope: "api://\(api)/ToDoList.Read openid profile offline_access",
                        client: emulator.ids.externalPublicClient, tenant: "contosocustomers.onmicrosoft.com"
                    ).string("access_token"))
            }
            let one = try await token(emulator.ids.api1)
            let two = try await token(emulator.ids.api2)
            let ok1 = try await emulator.get("/api1/todolist", headers: [("Authorization", "Bearer \(one)")])
            #expect(ok1.status == 200)
            #expect(try ok1.string("api") == "ToDoList API 1")
            #expect(
                try await emulator.get("/api2/todolist", headers: [("Authorization", "Bearer \(two)")]).status == 200)
            let cross = try await emulator.get("/api2/todolist", headers: [("Authorization", "Bearer \(one)")])
            #expect(cross.status == 401)
            #expect(cross.header("WWW-Authenticate")?.contains("invalid_token") == true)
            #expect(try await emulator.get("/api1/todolist").status == 401)
        }
    }
}
