import Foundation
import IdentityEmulator
import Testing

/// Tokens for API tests without a sign-in (`POST /_emulator/tokens`), and claims for the next tokens the token
/// endpoint issues (`POST /_emulator/claims`).
@Suite("Tokens on demand")
struct TokensOnDemandTests {
    static func mint(_ emulator: TestEmulator, _ order: String) async throws -> HTTPResult {
        try await emulator.post("/_emulator/tokens", json: order)
    }

    @Test("a user's token for API 1: signed with the emulator's keys, the scopes, groups and claims asked for")
    func userToken() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let answer = try await Self.mint(
                emulator,
                #"{"tenant": "\#(ids.externalTenant)", "api": "api://\#(ids.api1)", "user": "jane@example.com", "#
                    + #""client": "\#(ids.externalPublicClient)", "scopes": ["ToDoList.Read", "ToDoList.ReadWrite"], "#
                    + #""groups": ["g-1", "g-2"], "claims": {"acr": "c1", "wids": ["w-1"], "name": "Renamed"}, "#
                    + #""lifetimeSeconds": 600}"#)
            #expect(answer.status == 200)
            let token = try #require(try answer.string("access_token"))
            #expect(try answer.json["expires_in"] as? Int == 600)
            #expect(try JWTInspection.verifies(token, jwks: try await emulator.get("/common/discovery/v2.0/keys").json))
            let claims = try JWTInspection.claims(token)
            #expect(claims["aud"] as? String == ids.api1)
            #expect(claims["iss"] as? String == "\(emulator.base)/\(ids.externalTenant)/v2.0")
            #expect(claims["tid"] as? String == ids.externalTenant)
            #expect(claims["azp"] as? String == ids.externalPublicClient)
            #expect(claims["scp"] as? String == "ToDoList.Read ToDoList.ReadWrite")
            #expect(claims["groups"] as? [String] == ["g-1", "g-2"])
            #expect(claims["acr"] as? String == "c1")
            #expect(claims["wids"] as? [String] == ["w-1"])
            #expect(claims["name"] as? String == "Renamed")
            #expect(claims["idtyp"] as? String == "user")
            let iat = try #require(claims["iat"] as? Int)
            #expect(claims["exp"] as? Int == iat + 600)
        }
    }

    @Test("past 200 groups: the overage form pointing at Graph's getMemberObjects, which answers the whole list")
    func groupsOverage() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let groups = (1...250).map { "group-\($0)" }
            let list = "[" + groups.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            let jane = #""tenant": "\#(ids.externalTenant)", "user": "jane@example.com""#
            let api = try JWTInspection.claims(
                try #require(
                    try await Self.mint(emulator, #"{\#(jane), "api": "\#(ids.api1)", "groups": \#(list)}"#)
                        .string("access_token")))
            #expect(api["groups"] == nil)
            let oid = try #require(api["oid"] as? String)
            #expect((api["_claim_names"] as? [String: any Sendable])?["groups"] as? String == "src1")
            let sources = api["_claim_sources"] as? [String: any Sendable]
            let endpoint = try #require((sources?["src1"] as? [String: any Sendable])?["endpoint"] as? String)
            #expect(endpoint == "\(emulator.base)/v1.0/users/\(oid)/getMemberObjects")

            let graph = try #require(
                try await Self.mint(
                    emulator, #"{\#(jane), "api": "https://graph.microsoft.com", "scopes": ["User.Read"]}"#
                ).string("access_token"))
            for path in [endpoint, "/v1.0/me/getMemberObjects"] {
                let answer = try await emulator.post(
                    path, json: #"{"securityEnabledOnly": false}"#, headers: [("Authorization", "Bearer \(graph)")])
                #expect(answer.status == 200, "\(path)")
                #expect(try answer.json["value"] as? [String] == groups, "\(path)")
            }
            #expect(try await emulator.post(endpoint, json: "{}").status == 401)

            // At the limit, the groups themselves.
            let inline = try JWTInspection.claims(
                try #require(
                    try await Self.mint(
                        emulator,
                        #"{\#(jane), "api": "\#(ids.api1)", "groups": [\#(groups.prefix(200).map { "\"\($0)\"" }.joined(separator: ","))]}"#
                    ).string("access_token")))
            #expect((inline["groups"] as? [String])?.count == 200)
            #expect(inline["_claim_names"] == nil)
        }
    }

    @Test("an ID token for an app, the user signed in, with a claim changed; an unknown type is refused")
    func idToken() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let order =
                #"{"tenant": "\#(ids.externalTenant)", "api": "\#(ids.webApp)", "user": "jane@example.com", "#
                + #""claims": {"name": "Jane Tester"}, "type": "id"}"#
            let token = try #require(try await Self.mint(emulator, order).string("id_token"))
            #expect(try JWTInspection.verifies(token, jwks: try await emulator.get("/common/discovery/v2.0/keys").json))
            let claims = try JWTInspection.claims(token)
            #expect(claims["aud"] as? String == ids.webApp)
            #expect(claims["iss"] as? String == "\(emulator.base)/\(ids.externalTenant)/v2.0")
            #expect(claims["preferred_username"] as? String == "jane@example.com")
            #expect(claims["name"] as? String == "Jane Tester")
            let bogus = try await Self.mint(emulator, order.replacingOccurrences(of: #""id"}"#, with: #""pop"}"#))
            #expect(bogus.status == 400)
            #expect(try bogus.string("error") == "type must be access or id")
        }
    }

    @Test("an app's token: its granted roles by default, or the roles asked for")
    func appToken() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let order =
                #"{"tenant": "contoso.onmicrosoft.com", "api": "\#(ids.api1)", "app": "\#(ids.confidentialClient)""#
            let granted = try JWTInspection.claims(
                try #require(try await Self.mint(emulator, order + "}").string("access_token")))
            #expect(granted["roles"] as? [String] == ["ToDoList.Read.All"])
            #expect(granted["idtyp"] as? String == "app")
            #expect(granted["azp"] as? String == ids.confidentialClient)
            let asked = try JWTInspection.claims(
                try #require(
                    try await Self.mint(emulator, order + #", "roles": ["Other.Role"]}"#).string("access_token")))
            #expect(asked["roles"] as? [String] == ["Other.Role"])
        }
    }

    @Test("an order naming nobody, an unknown user, tenant or API, or a bad lifetime: 400 saying which")
    func refusals() async throws {
        try await TestEmulator.with { emulator in
            let api = "api://\(emulator.ids.api1)"
            for (order, message) in [
                (#"{"tenant": "contoso.onmicrosoft.com", "api": "\#(api)"}"#, "name either a user or an app"),
                (#"{"tenant": "contoso.onmicrosoft.com", "api": "\#(api)", "user": "nobody@x"}"#, "no user nobody@x"),
                (#"{"tenant": "nowhere.example", "api": "\#(api)", "app": "x"}"#, "no tenant nowhere.example"),
                (
                    #"{"tenant": "contoso.onmicrosoft.com", "api": "api://none", "app": "x"}"#,
                    "no application api://none"
                ),
                (
                    #"{"tenant": "contoso.onmicrosoft.com", "api": "\#(api)", "app": "x", "lifetimeSeconds": 5}"#,
                    "lifetimeSeconds must be between 60 and 86400"
                ),
                (#"{"api": "\#(api)"}"#, #"expected {"tenant""#),
                (
                    #"{"tenant": "\#(emulator.ids.externalTenant)", "api": "\#(api)", "user": "MeganB@contoso.onmicrosoft.com"}"#,
                    "is not a member of tenant"
                ),
            ] {
                let answer = try await Self.mint(emulator, order)
                #expect(answer.status == 400, "\(order)")
                let error = try answer.string("error") ?? ""
                #expect(error.contains(message), "\(order): \(error)")
            }
        }
    }

    @Test("claims for a user's next token: the next password grant carries them, the one after does not")
    func nextTokenClaims() async throws {
        try await TestEmulator.with { emulator in
            let queued = try await emulator.post(
                "/_emulator/claims",
                json: #"{"user": "MeganB@contoso.onmicrosoft.com", "claims": {"acr": "c2", "amr": ["pwd", "mfa"]}}"#)
            #expect(queued.status == 201)
            let first = try JWTInspection.claims(
                try #require(try await emulator.passwordGrant().string("access_token")))
            #expect(first["acr"] as? String == "c2")
            #expect(first["amr"] as? [String] == ["pwd", "mfa"])
            let second = try JWTInspection.claims(
                try #require(try await emulator.passwordGrant().string("access_token")))
            #expect(second["acr"] == nil)
            #expect(second["amr"] as? [String] == ["pwd"])

            // For a client's app tokens, twice.
            let forClient = try await emulator.post(
                "/_emulator/claims",
                json: #"{"client": "\#(emulator.ids.confidentialClient)", "claims": {"xms_cc": ["cp1"]}, "count": 2}"#)
            #expect(forClient.status == 201)
            for expected in [true, true, false] {
                let token = try #require(
                    try await emulator.daemonToken(scope: "api://\(emulator.ids.api1)/.default").string("access_token"))
                #expect((try JWTInspection.claims(token)["xms_cc"] != nil) == expected)
            }
            let refused = try await emulator.post(
                "/_emulator/claims", json: #"{"user": "nobody@x", "claims": {"a": 1}}"#)
            #expect(refused.status == 400)
        }
    }
}
