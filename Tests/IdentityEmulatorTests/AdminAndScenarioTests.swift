import Foundation
import IdentityEmulator
import Testing

@Suite("Admin API and fault scenarios")
struct AdminAndScenarioTests {
    @Test("the request log counts token requests by grant type and client")
    func requestLog() async throws {
        try await TestEmulator.with { emulator in
            _ = try await emulator.passwordGrant()
            _ = try await emulator.passwordGrant(password: "wrong")
            let log = try await emulator.get("/_emulator/requests?path=/oauth2/v2.0/token").json
            let requests = try #require(log["requests"] as? [any Sendable]).compactMap { $0 as? [String: any Sendable] }
            #expect(requests.count == 2)
            #expect(
                requests.allSatisfy {
                    $0["grant_type"] as? String == "password" && $0["client_id"] as? String == emulator.ids.publicClient
                })
            #expect(requests.map { $0["status"] as? Int } == [200, 400])
        }
    }

    @Test("the request log has requests to unknown routes too, with their 404")
    func unknownRoutesLogged() async throws {
        try await TestEmulator.with { emulator in
            #expect(try await emulator.get("/contoso.onmicrosoft.com/oauth2/v2.0/no-such-endpoint").status == 404)
            let log = try await emulator.get("/_emulator/requests?path=/oauth2/v2.0/no-such-endpoint").json
            let requests = try #require(log["requests"] as? [any Sendable]).compactMap { $0 as? [String: any Sendable] }
            #expect(requests.map { $0["status"] as? Int } == [404])
            #expect(requests.map { $0["method"] as? String } == ["GET"])
        }
    }

    @Test("reset forgets sessions, grants and the log")
    func reset() async throws {
        try await TestEmulator.with { emulator in
            let rt = try #require(try await emulator.passwordGrant().string("refresh_token"))
            #expect(try await emulator.post("/_emulator/reset", json: "{}").status == 200)
            let result = try await emulator.token(
                "organizations",
                [
                    ("grant_type", "refresh_token"), ("client_id", emulator.ids.publicClient),
                    ("refresh_token", rt), ("scope", "User.Read"),
                ])
            #expect(try result.json["error_codes"] as? [Int] == [9_002_313])
            let log = try await emulator.get("/_emulator/requests").json
            #expect((log["requests"] as? [any Sendable])?.count == 1)
        }
    }

    @Test(
        "throttle: 429 with Retry-After in seconds or as an HTTP date, then normal again",
        arguments: ["7", "Wed, 21 Oct 2026 07:28:00 GMT"])
    func throttle(retryAfter: String) async throws {
        try await TestEmulator.with { emulator in
            try await emulator.scenario("token", "throttle", count: 2, retryAfter: retryAfter)
            for _ in 0..<2 {
                let result = try await emulator.passwordGrant()
                #expect(result.status == 429)
                #expect(result.header("Retry-After") == retryAfter)
                #expect(try result.string("error") != nil)
            }
            #expect(try await emulator.passwordGrant().status == 200)
        }
    }

    @Test(
        "transport faults: 500, 503, malformed JSON, HTML page, truncated body, delay",
        arguments: [
            ("serverError", 500), ("serviceUnavailable", 503), ("malformedJSON", 200), ("htmlError", 502),
            ("truncatedBody", 200), ("delay", 200),
        ])
    func transportFaults(fault: String, status: Int) async throws {
        try await TestEmulator.with { emulator in
            if fault == "delay" {
                let added = try await emulator.post(
                    "/_emulator/scenarios", json: #"{"route":"token","fault":"delay","delayMilliseconds":20}"#)
                #expect(added.status == 201)
            } else {
                try await emulator.scenario("token", fault)
            }
            let result = try await emulator.passwordGrant()
            #expect(result.status == status)
            switch fault {
            case "malformedJSON", "truncatedBody":
                #expect((try? JSONSerialization.jsonObject(with: Data(result.body.utf8))) == nil)
            case "htmlError":
                #expect(result.header("Content-Type")?.hasPrefix("text/html") == true)
            case "delay":
                #expect(try result.string("access_token") != nil)
            default:
                try Golden.expectShape(result.body, matches: "token-error-revoked", ignoring: ["suberror"])
            }
            #expect(try await emulator.passwordGrant().status == 200)
        }
    }

    @Test("faults reach discovery, keys and Graph too")
    func otherRoutes() async throws {
        try await TestEmulator.with { emulator in
            try await emulator.scenario("discovery", "serviceUnavailable")
            try await emulator.scenario("keys", "htmlError")
            try await emulator.scenario("graph", "throttle", retryAfter: "3")
            #expect(try await emulator.get("/common/v2.0/.well-known/openid-configuration").status == 503)
            #expect(try await emulator.get("/common/discovery/v2.0/keys").status == 502)
            #expect(try await emulator.get("/v1.0/me").status == 429)
        }
    }

    @Test("wrong state on the authorize redirect")
    func wrongState() async throws {
        try await TestEmulator.with { emulator in
            try await emulator.scenario("authorize", "wrongState")
            let request = AuthorizationRequest()
            let location = try await emulator.signInInteractively(request, browser: ScriptedBrowser(emulator))
            let state = try #require(redirectParameters(location)["state"])
            #expect(state != request.state)
        }
    }

    @Test(
        "ID token faults",
        arguments: [
            "idTokenBadSignature", "idTokenAlgNone", "idTokenWrongNonce", "idTokenWrongAudience",
            "idTokenWrongIssuer", "idTokenExpired", "idTokenIssuedInFuture", "idTokenOtherUser",
        ])
    func idTokenFaults(fault: String) async throws {
        try await TestEmulator.with { emulator in
            try await emulator.scenario("token", fault)
            let request = AuthorizationRequest()
            let result = try await emulator.authorizationCodeTokens(request, browser: ScriptedBrowser(emulator))
            let idToken = try #require(try result.string("id_token"))
            let jwks = try await emulator.get("/common/discovery/v2.0/keys").json
            let claims = try JWTInspection.claims(idToken)
            let header = try JWTInspection.header(idToken)
            let now = Int(TestEmulator.epoch.timeIntervalSince1970)
            switch fault {
            case "idTokenBadSignature": #expect(try !JWTInspection.verifies(idToken, jwks: jwks))
            case "idTokenAlgNone":
                #expect(header["alg"] as? String == "none")
                #expect(idToken.hasSuffix("."))
            case "idTokenWrongNonce": #expect(claims["nonce"] as? String != request.nonce)
            case "idTokenWrongAudience": #expect(claims["aud"] as? String != request.clientID)
            case "idTokenWrongIssuer": #expect((claims["iss"] as? String)?.hasPrefix(emulator.base) == false)
            case "idTokenExpired": #expect((claims["exp"] as? Int ?? now) < now)
            case "idTokenIssuedInFuture": #expect((claims["nbf"] as? Int ?? 0) > now + 600)
            default: #expect(claims["oid"] as? String != "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f")
            }
            if fault != "idTokenBadSignature" && fault != "idTokenAlgNone" {
                #expect(try JWTInspection.verifies(idToken, jwks: jwks))
            }
            let clean = try await emulator.authorizationCodeTokens(request, browser: ScriptedBrowser(emulator))
            #expect(
                try JWTInspection.claims(try #require(try clean.string("id_token")))["nonce"] as? String
                    == request.nonce)
        }
    }

    @Test("token_type faults: missing, and not Bearer")
    func tokenTypeFaults() async throws {
        try await TestEmulator.with { emulator in
            try await emulator.scenario("token", "missingTokenType")
            #expect(try await emulator.passwordGrant().json["token_type"] == nil)
            try await emulator.scenario("token", "nonBearerTokenType")
            #expect(try await emulator.passwordGrant().string("token_type") == "pop")
        }
    }

    @Test("a malformed scenario is refused with the list of routes and faults")
    func badScenario() async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.post("/_emulator/scenarios", json: #"{"route":"token","fault":"explode"}"#)
            #expect(result.status == 400)
            #expect(result.body.contains("throttle"))
        }
    }

    @Test("the clock offset moves token timestamps")
    func clock() async throws {
        try await TestEmulator.with { emulator in
            try await emulator.setClockOffset(86_400)
            let token = try #require(try await emulator.passwordGrant().string("id_token"))
            let iat = try #require(try JWTInspection.claims(token)["iat"] as? Int)
            #expect(iat == Int(TestEmulator.epoch.timeIntervalSince1970) + 86_400)
            let clock = try await emulator.get("/_emulator/clock").json
            #expect(clock["offsetSeconds"] as? Int == 86_400)
        }
    }
}
