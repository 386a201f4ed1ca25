import Foundation
import MSAL
import MSALVapor
import TestServers
import Testing
import VaporTesting

/// The bearer authenticator, its guard and the permission middleware on a Vapor app, with MSAL's validator: the
/// caller in `req.auth`, and RFC 6750 answers for every refusal, as MSALHummingbird gives them.
@Suite("Vapor protected web API")
struct AccessTokenAuthenticatorTests {
    let forge: TokenForge
    let clock = ManualClock()

    init() throws { forge = try TokenForge() }

    /// `GET /read` needs `ToDoList.Read` or the app role `ToDoList.Read.All`; `GET /write` needs `ToDoList.ReadWrite`
    /// (the authenticator, guard and permission as one middleware);
    /// `GET /caller` needs only a valid token and answers with what the principal holds; `GET /claims` throws a
    /// claims challenge.
    func withAPI(_ test: (Vapor.Application) async throws -> Void) async throws {
        var configuration = try AccessTokenValidator.Configuration(
            authority: Authority("\(TokenForge.instance)/organizations"), audiences: [TokenForge.api],
            allowedTenants: [TokenForge.tenant])
        configuration.transport = forge.transport
        configuration.clock = clock
        try await withApp { app in
            app.msal.accessTokens = AccessTokenValidator(configuration: configuration)
            let api = app.requiringAccessToken()
            api.requiring(scopes: ["ToDoList.Read"], appRoles: ["ToDoList.Read.All"]).get("read") { req in
                try req.msal.caller.objectID ?? ""
            }
            app.requiringAccessToken(scopes: ["ToDoList.ReadWrite"]).get("write") { req in
                try req.msal.caller.objectID ?? ""
            }
            api.get("caller") { req in
                let caller = try req.auth.require(AccessTokenPrincipal.self)
                return [
                    caller.tenantID ?? "", caller.objectID ?? "", caller.appID ?? "",
                    caller.scopes.sorted().joined(separator: " "),
                    caller.rawToken == req.headers.bearerAuthorization?.token
                        ? "raw" : "",
                ].joined(separator: "|")
            }
            api.get("claims") { _ -> String in
                throw BearerChallenge.claims(#"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#)
            }
            try await test(app)
        }
    }

    func get(_ app: Vapor.Application, _ path: String, token: String?, scheme: String = "Bearer") async throws
        -> TestingHTTPResponse
    {
        var headers = HTTPHeaders()
        if let token { headers.add(name: .authorization, value: "\(scheme) \(token)") }
        return try await app.testing().sendRequest(.GET, path, headers: headers)
    }

    @Test("a valid token logs its caller into req.auth: tenant, object id, app id, scopes, the raw token")
    func accepted() async throws {
        let token = try forge.token(TokenForge.userClaims(now: clock.now()))
        try await withAPI { app in
            let read = try await get(app, "/read", token: token)
            #expect(read.status == .ok)
            #expect(read.body.string == "user-oid")
            let caller = try await get(app, "/caller", token: token, scheme: "bearer")
            #expect(caller.body.string == "\(TokenForge.tenant)|user-oid|client-app|ToDoList.Read|raw")
        }
    }

    @Test("no token, or another scheme: 401 with a bare Bearer challenge")
    func missing() async throws {
        try await withAPI { app in
            let response = try await get(app, "/read", token: nil)
            #expect(response.status == .unauthorized)
            #expect(response.headers.first(name: .wwwAuthenticate) == "Bearer")
            #expect(response.body.string == #"{"error":"unauthorized"}"#)
            #expect(try await get(app, "/caller", token: "abc", scheme: "Basic").status == .unauthorized)
        }
    }

    @Test(
        "another tenant's token, a forged or expired one: 401 invalid_token, never quoting the token",
        arguments: ["tenant", "signature", "audience", "expired", "malformed"])
    func invalid(_ kind: String) async throws {
        var claims = TokenForge.userClaims(now: clock.now())
        switch kind {
        case "tenant":
            claims["tid"] = TokenForge.otherTenant
            claims["iss"] = "\(TokenForge.instance)/\(TokenForge.otherTenant)/v2.0"
        case "audience": claims["aud"] = TokenForge.otherAPI
        case "expired": claims["exp"] = Int(clock.now().timeIntervalSince1970) - 3600
        default: break
        }
        var token = try forge.token(claims)
        if kind == "signature" { token = String(token.dropLast(4)) + "AAAA" }
        if kind == "malformed" { token = "garbage" }
        try await withAPI { app in
            let response = try await get(app, "/caller", token: token)
            #expect(response.status == .unauthorized)
            let challenge = try #require(response.headers.first(name: .wwwAuthenticate))
            #expect(challenge.hasPrefix("Bearer error=\"invalid_token\", error_description=\""))
            #expect(!challenge.contains(token))
            #expect(!response.body.string.contains(token))
            #expect(response.body.string.contains("\"error\":\"invalid_token\""))
        }
    }

    @Test("the authority's keys out of reach: 503 temporarily_unavailable")
    func keysUnavailable() async throws {
        forge.failDiscovery()
        let token = try forge.token(TokenForge.userClaims(now: clock.now()))
        try await withAPI { app in
            let response = try await get(app, "/caller", token: token)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers.first(name: .wwwAuthenticate)?.contains("temporarily_unavailable") == true)
        }
    }

    @Test("a user token without the scope: 403 insufficient_scope naming what would do; an app role for app tokens")
    func insufficient() async throws {
        let reader = try forge.token(TokenForge.userClaims(now: clock.now(), scopes: "ToDoList.Read"))
        let daemon = try forge.token(TokenForge.appClaims(now: clock.now(), roles: ["ToDoList.Read.All"]))
        let stranger = try forge.token(TokenForge.appClaims(now: clock.now(), roles: ["Other.Role"]))
        try await withAPI { app in
            #expect(try await get(app, "/write", token: nil).status == .unauthorized)
            let forbidden = try await get(app, "/write", token: reader)
            #expect(forbidden.status == .forbidden)
            // The second time the token is remembered, and checked without a task: the same answer.
            #expect(try await get(app, "/write", token: reader).status == .forbidden)
            #expect(
                forbidden.headers.first(name: .wwwAuthenticate)
                    == #"Bearer error="insufficient_scope", error_description="The token has none of the permissions this route accepts.", scope="ToDoList.ReadWrite""#
            )
            #expect(forbidden.body.string.contains(#""error":"insufficient_scope""#))
            #expect(try await get(app, "/read", token: daemon).status == .ok)
            let noRole = try await get(app, "/read", token: stranger)
            #expect(noRole.status == .forbidden)
            #expect(noRole.headers.first(name: .wwwAuthenticate)?.contains(#"scope="ToDoList.Read.All""#) == true)
            // An app token where only users are allowed: no app role would do.
            #expect(try await get(app, "/write", token: daemon).status == .forbidden)
        }
    }

    @Test("a claims challenge a route throws goes back to the caller as Entra writes it")
    func claimsChallenge() async throws {
        let token = try forge.token(TokenForge.userClaims(now: clock.now()))
        try await withAPI { app in
            let response = try await get(app, "/claims", token: token)
            #expect(response.status == .unauthorized)
            let header = try #require(response.headers.first(name: .wwwAuthenticate))
            #expect(header.hasPrefix(#"Bearer realm="", error="insufficient_claims", claims=""#))
            #expect(response.body.string == #"{"error":"insufficient_claims"}"#)
        }
    }
}
