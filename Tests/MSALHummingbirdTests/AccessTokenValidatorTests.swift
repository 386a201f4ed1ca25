import Foundation
import MSAL
import TestServers
import Testing

/// `AccessTokenValidator` against a forged identity provider: what it accepts and every way it refuses.
@Suite("Access token validation")
struct AccessTokenValidatorTests {
    let forge: TokenForge
    let clock = ManualClock()

    init() throws { forge = try TokenForge() }

    func validator(
        tenant: String = "organizations", allowedTenants: Set<String>? = [TokenForge.tenant],
        audiences: [String] = [TokenForge.api, "api://\(TokenForge.api)"], allowsAuthorizationByACL: Bool = false
    ) throws -> AccessTokenValidator {
        var configuration = try AccessTokenValidator.Configuration(
            authority: Authority("\(TokenForge.instance)/\(tenant)"), audiences: audiences,
            allowedTenants: allowedTenants)
        configuration.transport = forge.transport
        configuration.clock = clock
        configuration.allowsAuthorizationByACL = allowsAuthorizationByACL
        return AccessTokenValidator(configuration: configuration)
    }

    func expectRejected(
        _ token: String, _ reason: AccessTokenRejection.Reason, by validator: AccessTokenValidator? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let validator = try validator ?? self.validator()
        do {
            _ = try await validator.validate(token)
            Issue.record("accepted a token that should fail with \(reason)", sourceLocation: sourceLocation)
        } catch let rejection as AccessTokenRejection {
            #expect(rejection.reason == reason, "\(rejection)", sourceLocation: sourceLocation)
            #expect(!rejection.message.contains(token), sourceLocation: sourceLocation)
        }
    }

    @Test("a user's v2 token: scopes, tenant, object id and calling app come out")
    func acceptsUserToken() async throws {
        let token = try forge.token(TokenForge.userClaims(now: clock.now(), scopes: "ToDoList.Read ToDoList.ReadWrite"))
        let validated = try await validator().validate(token)
        #expect(validated.scopes == ["ToDoList.Read", "ToDoList.ReadWrite"])
        #expect(validated.roles.isEmpty)
        #expect(!validated.isAppOnly)
        #expect(validated.tenantID == TokenForge.tenant)
        #expect(validated.objectID == "user-oid")
        #expect(validated.clientID == "client-app")
        #expect(validated.rawValue == token)
    }

    @Test("an app-only token: roles, no scopes; the app id URI is an accepted audience too")
    func acceptsAppToken() async throws {
        var claims = TokenForge.appClaims(now: clock.now(), roles: ["ToDoList.Read.All"])
        claims["aud"] = "api://\(TokenForge.api)"
        let validated = try await validator().validate(try forge.token(claims))
        #expect(validated.isAppOnly)
        #expect(validated.roles == ["ToDoList.Read.All"])
        #expect(validated.scopes.isEmpty)
    }

    @Test("a v1 token (sts.windows.net issuer, appid) from the tenant is accepted")
    func acceptsV1Token() async throws {
        var claims = TokenForge.userClaims(now: clock.now())
        claims["iss"] = "https://sts.windows.net/\(TokenForge.tenant)/"
        claims["ver"] = "1.0"
        claims["appid"] = "v1-client"
        claims["azp"] = nil
        let validated = try await validator().validate(try forge.token(claims))
        #expect(validated.version == "1.0")
        #expect(validated.clientID == "v1-client")
    }

    @Test("a tampered payload, alg none, HS256 and a malformed token are refused")
    func refusesForgeries() async throws {
        let good = try forge.token(TokenForge.userClaims(now: clock.now()))
        let parts = good.split(separator: ".").map(String.init)
        var widened = TokenForge.userClaims(now: clock.now(), scopes: "ToDoList.ReadWrite")
        widened["oid"] = "someone-else"
        let tampered =
            parts[0] + "." + TokenForge.base64URL(try JSONSerialization.data(withJSONObject: widened)) + "." + parts[2]
        try await expectRejected(tampered, .badSignature)
        let none = try forge.token(TokenForge.userClaims(now: clock.now()), header: ["alg": "none", "kid": "key-1"])
        try await expectRejected(
            String(none.split(separator: ".")[0...1].joined(separator: ".")) + ".", .unsupportedAlgorithm)
        try await expectRejected(none, .unsupportedAlgorithm)
        let hs256 = try forge.token(TokenForge.userClaims(now: clock.now()), header: ["alg": "HS256", "kid": "key-1"])
        try await expectRejected(hs256, .unsupportedAlgorithm)
        // The caller's `alg` is named in no message.
        let chosen = try forge.token(
            TokenForge.userClaims(now: clock.now()), header: ["alg": "x-chosen", "kid": "key-1"])
        do {
            _ = try await validator().validate(chosen)
            Issue.record("accepted a token with an unknown alg")
        } catch let rejection as AccessTokenRejection {
            #expect(!rejection.message.contains("x-chosen"))
        }
        try await expectRejected("not.a-jwt", .malformed)
        try await expectRejected("", .malformed)
    }

    @Test("another audience, another API's token, another issuer, a tenant not allowed are refused")
    func refusesOtherIssuersAndAudiences() async throws {
        var claims = TokenForge.userClaims(now: clock.now())
        claims["aud"] = TokenForge.otherAPI
        try await expectRejected(try forge.token(claims), .wrongAudience)
        claims = TokenForge.userClaims(now: clock.now())
        claims["aud"] = "https://graph.microsoft.com"
        try await expectRejected(try forge.token(claims), .wrongAudience)

        claims = TokenForge.userClaims(now: clock.now())
        claims["iss"] = "https://evil.example/\(TokenForge.tenant)/v2.0"
        try await expectRejected(try forge.token(claims), .wrongIssuer)
        claims["iss"] = nil
        try await expectRejected(try forge.token(claims), .wrongIssuer)

        claims = TokenForge.userClaims(now: clock.now())
        claims["tid"] = TokenForge.otherTenant
        claims["iss"] = "\(TokenForge.instance)/\(TokenForge.otherTenant)/v2.0"
        try await expectRejected(try forge.token(claims), .tenantNotAllowed)
        // Any tenant when the API names none.
        #expect(
            try await validator(allowedTenants: nil).validate(try forge.token(claims)).tenantID
                == TokenForge.otherTenant)

        // A single-tenant API: another tenant's token, v2 or v1, is refused.
        let single = try validator(tenant: TokenForge.tenant, allowedTenants: nil)
        try await expectRejected(try forge.token(claims), .wrongIssuer, by: single)
        claims["iss"] = "https://sts.windows.net/\(TokenForge.otherTenant)/"
        try await expectRejected(try forge.token(claims), .tenantNotAllowed, by: single)
        #expect(try await single.validate(try forge.token(TokenForge.userClaims(now: clock.now()))).tenantID != nil)
    }

    @Test(
        "neither scp nor roles (an ID token for the API's own registration) is refused unless the API authorizes by ACL; no azp or appid (an ID token with roles) is refused"
    )
    func permissionsRequired() async throws {
        var claims = TokenForge.userClaims(now: clock.now())
        claims["scp"] = nil
        claims["azp"] = nil
        claims["nonce"] = "n-0S6"
        try await expectRejected(try forge.token(claims), .noPermissions)
        claims["scp"] = ""
        claims["roles"] = [String]()
        try await expectRejected(try forge.token(claims), .noPermissions)

        // An ID token whose user was given app roles carries roles, but names no calling app.
        claims["roles"] = ["ToDoList.Read.All"]
        try await expectRejected(try forge.token(claims), .noClient)

        // An API that authorizes by ACL takes an access token without permissions, never an ID token.
        claims["roles"] = nil
        let acl = try validator(allowsAuthorizationByACL: true)
        try await expectRejected(try forge.token(claims), .noClient, by: acl)
        claims["azp"] = "client-on-the-acl"
        let validated = try await acl.validate(try forge.token(claims))
        #expect(validated.scopes.isEmpty && validated.roles.isEmpty && validated.objectID == "user-oid")
        // A user token with a scope, a daemon's with a role pass by default.
        #expect(
            try await validator().validate(try forge.token(TokenForge.userClaims(now: clock.now()))).scopes.count == 1)
        let daemon = try forge.token(TokenForge.appClaims(now: clock.now(), roles: ["ToDoList.Read.All"]))
        #expect(try await validator().validate(daemon).isAppOnly)
    }

    @Test("lifetime: expired beyond the skew and not yet valid are refused; within the skew accepted")
    func lifetime() async throws {
        let validator = try validator()
        var claims = TokenForge.userClaims(now: clock.now())
        claims["exp"] = Int(clock.now().timeIntervalSince1970) - 200
        #expect(try await validator.validate(try forge.token(claims)).tenantID != nil)
        claims["exp"] = Int(clock.now().timeIntervalSince1970) - 301
        try await expectRejected(try forge.token(claims), .expired, by: validator)
        claims = TokenForge.userClaims(now: clock.now())
        claims["nbf"] = Int(clock.now().timeIntervalSince1970) + 600
        try await expectRejected(try forge.token(claims), .notYetValid, by: validator)
        claims["nbf"] = nil
        claims["exp"] = nil
        try await expectRejected(try forge.token(claims), .expired, by: validator)

        // A remembered token is still checked against the clock.
        let token = try forge.token(TokenForge.userClaims(now: clock.now()))
        _ = try await validator.validate(token)
        clock.advance(by: 3600 + 301)
        try await expectRejected(token, .expired, by: validator)
    }

    @Test("a token that passed is found without a suspension until it expires; one that did not pass, never")
    func rememberedToken() async throws {
        let validator = try validator()
        let token = try forge.token(TokenForge.userClaims(now: clock.now()))
        #expect(validator.rememberedToken(token[...]) == nil)
        _ = try await validator.validate(token)
        #expect(validator.rememberedToken(token[...])?.rawValue == token)
        #expect(forge.keySetFetches == 1)
        var claims = TokenForge.userClaims(now: clock.now())
        claims["aud"] = "api://someone-else"
        let refused = try forge.token(claims)
        try await expectRejected(refused, .wrongAudience, by: validator)
        #expect(validator.rememberedToken(refused[...]) == nil)
        // Remembered by its signature, recognised by its whole text: the same signature on other claims is no match.
        var other = TokenForge.userClaims(now: clock.now())
        other["oid"] = "someone-else"
        let forged =
            try forge.token(other).split(separator: ".")[0...1].joined(separator: ".") + "."
            + token.split(separator: ".")[2]
        #expect(validator.rememberedToken(forged[...]) == nil)
        try await expectRejected(forged, .badSignature, by: validator)
        #expect(validator.rememberedToken(token[...])?.objectID == "user-oid")
        clock.advance(by: 3600 + 301)
        #expect(validator.rememberedToken(token[...]) == nil)
    }

    @Test("unknown key ids: one fetch of the keys per interval, however many arrive; a rolled-over key is found")
    func keyRefetchIsRateLimited() async throws {
        let validator = try validator()
        _ = try await validator.validate(try forge.token(TokenForge.userClaims(now: clock.now())))
        #expect(forge.keySetFetches == 1)
        for index in 0..<50 {
            let stranger = try forge.token(
                TokenForge.userClaims(now: clock.now()),
                header: ["typ": "JWT", "alg": "RS256", "kid": "random-\(index)"])
            try await expectRejected(stranger, .unknownKey, by: validator)
        }
        // The first unknown kid after the initial fetch is still within the interval: no fetch at all.
        #expect(forge.keySetFetches == 1)

        let rolled = try TokenForge.newKey("key-2")
        forge.publish(rolled)
        let next = try forge.token(TokenForge.userClaims(now: clock.now()), key: rolled)
        try await expectRejected(next, .unknownKey, by: validator)
        clock.advance(by: 301)
        #expect(try await validator.validate(next).tenantID != nil)
        #expect(forge.keySetFetches == 2)
        for index in 0..<20 {
            let stranger = try forge.token(
                TokenForge.userClaims(now: clock.now()),
                header: ["typ": "JWT", "alg": "RS256", "kid": "again-\(index)"])
            try await expectRejected(stranger, .unknownKey, by: validator)
        }
        #expect(forge.keySetFetches == 2)
    }

    @Test(
        "an authority whose metadata cannot be fetched: keysUnavailable, never an acceptance; asked again once at once, then not for 5 seconds"
    )
    func keysUnavailable() async throws {
        forge.failDiscovery()
        let validator = try validator()
        let token = try forge.token(TokenForge.userClaims(now: clock.now()))
        try await expectRejected(token, .keysUnavailable, by: validator)
        #expect(discoveryRequests() == 2, "a 500 is retried once, as every request to the identity platform")
        clock.advance(by: 4)
        try await expectRejected(token, .keysUnavailable, by: validator)
        #expect(discoveryRequests() == 2, "no request within the backoff")
        clock.advance(by: 2)
        try await expectRejected(token, .keysUnavailable, by: validator)
        #expect(discoveryRequests() == 4)
    }

    func discoveryRequests() -> Int {
        forge.requests.count { $0.url?.path.hasSuffix("/.well-known/openid-configuration") == true }
    }

    @Test("the OpenID configuration and keys are fetched with MSAL's headers: a request id and the library's name")
    func fetchHeaders() async throws {
        _ = try await validator().validate(try forge.token(TokenForge.userClaims(now: clock.now())))
        let requests = forge.requests
        #expect(
            requests.map { $0.url?.path } == [
                "/organizations/v2.0/.well-known/openid-configuration", "/discovery/v2.0/keys",
            ])
        for request in requests {
            func header(_ name: String) -> String? { request.headerFields.first { $0.name.rawName == name }?.value }
            #expect(header("client-request-id").flatMap(UUID.init(uuidString:)) != nil, "\(request.path ?? "")")
            #expect(header("return-client-request-id") == "true")
            #expect(header("x-client-SKU") == "MSAL.Swift" && header("x-client-Ver") != nil)
        }
        #expect(
            Set(requests.compactMap { $0.headerFields.first { $0.name.rawName == "client-request-id" }?.value }).count
                == 2)
    }
}
