import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import MSAL
import MSALHummingbird
import TestServers
import Testing

/// The bearer-token and permission middleware on a Hummingbird router: RFC 6750 answers for every refusal, and the
/// handler sees the validated token.
@Suite("Protected web API middleware")
struct MiddlewareTests {
    struct Context: AccessTokenRequestContext {
        var coreContext: CoreRequestContextStorage
        var accessToken: ValidatedAccessToken?

        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    }

    let forge: TokenForge
    let clock = ManualClock()

    init() throws { forge = try TokenForge() }

    /// `GET /read` needs `ToDoList.Read` or the app role `ToDoList.Read.All`; `GET /write` needs `ToDoList.ReadWrite`;
    /// `GET /caller` needs only a valid token.
    func application(allowsAuthorizationByACL: Bool = false, logger: Logger? = nil) throws
        -> some ApplicationProtocol
    {
        var configuration = try AccessTokenValidator.Configuration(
            authority: Authority("\(TokenForge.instance)/organizations"), audiences: [TokenForge.api],
            allowedTenants: [TokenForge.tenant])
        configuration.transport = forge.transport
        configuration.clock = clock
        configuration.allowsAuthorizationByACL = allowsAuthorizationByACL
        let router = Router(context: Context.self)
        let api = router.group().add(
            middleware: BearerTokenMiddleware<Context>(validator: AccessTokenValidator(configuration: configuration)))
        api.group("read")
            .add(
                middleware: RequiredPermissionMiddleware<Context>(
                    scopes: ["ToDoList.Read"], appRoles: ["ToDoList.Read.All"])
            )
            .get { _, context in try context.requireAccessToken().objectID ?? "" }
        api.group("write")
            .add(middleware: RequiredPermissionMiddleware<Context>(scopes: ["ToDoList.ReadWrite"]))
            .get { _, context in try context.requireAccessToken().objectID ?? "" }
        api.get("caller") { _, context in try context.requireAccessToken().objectID ?? "" }
        return Application(router: router, logger: logger ?? Logger(label: "middleware-tests"))
    }

    func get(
        _ path: String, token: String?, scheme: String = "Bearer", allowsAuthorizationByACL: Bool = false,
        logger: Logger? = nil
    ) async throws -> TestResponse {
        try await application(allowsAuthorizationByACL: allowsAuthorizationByACL, logger: logger).test(.router) {
            client in
            var headers: HTTPFields = [:]
            if let token { headers[.authorization] = "\(scheme) \(token)" }
            return try await client.execute(uri: path, method: .get, headers: headers)
        }
    }

    @Test("a valid token reaches the handler, which sees it; the scheme is case-insensitive")
    func accepted() async throws {
        let token = try forge.token(TokenForge.userClaims(now: clock.now()))
        let response = try await get("/read", token: token)
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == "user-oid")
        #expect(try await get("/read", token: token, scheme: "bearer").status == .ok)
    }

    @Test("no token: 401 with a bare Bearer challenge")
    func missing() async throws {
        let response = try await get("/read", token: nil)
        #expect(response.status == .unauthorized)
        #expect(response.headers[.wwwAuthenticate] == "Bearer")
        #expect(try await get("/read", token: "abc", scheme: "Basic").status == .unauthorized)
    }

    @Test(
        "every invalid token: 401 invalid_token naming the check, never the token",
        arguments: ["signature", "none", "audience", "issuer", "tenant", "expired", "other API", "malformed"])
    func invalid(_ kind: String) async throws {
        var claims = TokenForge.userClaims(now: clock.now())
        var header: [String: Any]?
        switch kind {
        case "none": header = ["alg": "none", "kid": "key-1"]
        case "audience": claims["aud"] = "api://somebody-else"
        case "other API": claims["aud"] = TokenForge.otherAPI
        case "issuer": claims["iss"] = "https://evil.example/\(TokenForge.tenant)/v2.0"
        case "tenant":
            claims["tid"] = TokenForge.otherTenant
            claims["iss"] = "\(TokenForge.instance)/\(TokenForge.otherTenant)/v2.0"
        case "expired": claims["exp"] = Int(clock.now().timeIntervalSince1970) - 3600
        default: break
        }
        var token = try forge.token(claims, header: header)
        if kind == "signature" { token = String(token.dropLast(4)) + "AAAA" }
        if kind == "malformed" { token = "garbage" }
        let response = try await get("/read", token: token)
        #expect(response.status == .unauthorized)
        let challenge = try #require(response.headers[.wwwAuthenticate])
        #expect(challenge.hasPrefix("Bearer error=\"invalid_token\", error_description=\""))
        #expect(!challenge.contains(token))
        #expect(!String(buffer: response.body).contains(token))
        #expect(String(buffer: response.body).contains("\"error\":\"invalid_token\""))
    }

    @Test("a user token without the scope, an app token without the role: 403 insufficient_scope naming what would do")
    func insufficient() async throws {
        let reader = try forge.token(TokenForge.userClaims(now: clock.now(), scopes: "ToDoList.Read"))
        let forbidden = try await get("/write", token: reader)
        #expect(forbidden.status == .forbidden)
        #expect(forbidden.headers[.wwwAuthenticate]?.contains("error=\"insufficient_scope\"") == true)
        #expect(forbidden.headers[.wwwAuthenticate]?.contains("scope=\"ToDoList.ReadWrite\"") == true)

        let daemon = try forge.token(TokenForge.appClaims(now: clock.now(), roles: ["ToDoList.Read.All"]))
        #expect(try await get("/read", token: daemon).status == .ok)
        let noRole = try await get("/write", token: daemon)
        #expect(noRole.status == .forbidden)
        let otherRole = try forge.token(TokenForge.appClaims(now: clock.now(), roles: ["Mail.Send"]))
        let refused = try await get("/read", token: otherRole)
        #expect(refused.status == .forbidden)
        #expect(refused.headers[.wwwAuthenticate]?.contains("scope=\"ToDoList.Read.All\"") == true)
        // A user whose token carries the role but no scope is not a daemon.
        var userWithRole = TokenForge.userClaims(now: clock.now(), scopes: "User.Read")
        userWithRole["roles"] = ["ToDoList.Read.All"]
        #expect(try await get("/read", token: try forge.token(userWithRole)).status == .forbidden)
    }

    @Test(
        "neither scp nor roles (an ID token for the API's own registration): 401, unless the API authorizes by ACL"
    )
    func noPermissions() async throws {
        let seconds = Int(clock.now().timeIntervalSince1970)
        let idToken = try forge.token([
            "aud": TokenForge.api, "iss": "\(TokenForge.instance)/\(TokenForge.tenant)/v2.0", "tid": TokenForge.tenant,
            "oid": "user-oid", "sub": "user-sub", "nonce": "n-0S6", "ver": "2.0", "iat": seconds, "nbf": seconds,
            "exp": seconds + 3600, "preferred_username": "jane@example.com",
        ])
        let refused = try await get("/caller", token: idToken)
        #expect(refused.status == .unauthorized)
        #expect(
            refused.headers[.wwwAuthenticate]
                == "Bearer error=\"invalid_token\", error_description=\"\(AccessTokenRejection.Reason.noPermissions.clientMessage)\""
        )
        // Empty claims are no permission either.
        var empty = TokenForge.userClaims(now: clock.now(), scopes: "")
        empty["roles"] = [String]()
        #expect(try await get("/caller", token: try forge.token(empty)).status == .unauthorized)

        // An API that authorizes callers by an access-control list sees the caller of an access token without
        // permissions; per-route permissions still apply. An ID token names no calling app: refused all the same.
        #expect(try await get("/caller", token: idToken, allowsAuthorizationByACL: true).status == .unauthorized)
        var withoutPermissions = TokenForge.userClaims(now: clock.now())
        withoutPermissions["scp"] = nil
        let accessToken = try forge.token(withoutPermissions)
        let accepted = try await get("/caller", token: accessToken, allowsAuthorizationByACL: true)
        #expect(accepted.status == .ok)
        #expect(String(buffer: accepted.body) == "user-oid")
        #expect(try await get("/read", token: accessToken, allowsAuthorizationByACL: true).status == .forbidden)
    }

    @Test("an attacker-chosen alg is not echoed: the challenge and the body carry a fixed text")
    func algorithmNotEchoed() async throws {
        let alg = #"HS256", error="none\"#
        let token = try forge.token(
            TokenForge.userClaims(now: clock.now()), header: ["alg": alg, "kid": "key-1", "typ": "JWT"])
        let response = try await get("/read", token: token)
        #expect(response.status == .unauthorized)
        #expect(
            response.headers[.wwwAuthenticate]
                == "Bearer error=\"invalid_token\", error_description=\"The token is not signed with RS256.\"")
        #expect(!String(buffer: response.body).contains("HS256"))
    }

    @Test("the authority's keys cannot be fetched: 503 with a fixed text, the authority's URLs only in the log")
    func unavailable() async throws {
        forge.failDiscovery()
        let logs = InMemoryLogHandler()
        let response = try await get(
            "/read", token: try forge.token(TokenForge.userClaims(now: clock.now())),
            logger: Logger(label: "middleware-tests") { _ in logs })
        #expect(response.status == .serviceUnavailable)
        let description = AccessTokenRejection.Reason.keysUnavailable.clientMessage
        #expect(
            response.headers[.wwwAuthenticate]
                == "Bearer error=\"temporarily_unavailable\", error_description=\"\(description)\"")
        #expect(
            String(buffer: response.body)
                == #"{"error":"temporarily_unavailable","error_description":"\#(description)"}"#)
        let refusal = try #require(logs.entries.first { $0.message == "bearer token refused" })
        #expect(refusal.level == .warning)
        #expect(refusal.metadata["reason"] == "keys_unavailable")
        #expect(refusal.metadata["detail"]?.description.contains("login.example.test") == true)
    }

    @Test("a claims challenge: 401 insufficient_claims with the claims in base64, as Entra's APIs send it")
    func claimsChallenge() throws {
        let claims = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#
        let challenge = BearerChallenge.claims(claims, clientID: TokenForge.api)
        #expect(challenge.status == .unauthorized)
        #expect(
            challenge.wwwAuthenticate
                == "Bearer realm=\"\", client_id=\"\(TokenForge.api)\", error=\"insufficient_claims\", claims=\"\(Data(claims.utf8).base64EncodedString())\""
        )
    }
}
