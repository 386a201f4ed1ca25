import Foundation
import Testing

@testable import MSAL

/// Each request type's exact form, as `protocol.md` §2–§4 and External ID's native-auth API give them.
@Suite("Wire requests: one form per grant and step")
struct WireRequestTests {
    static let client = "7b1e5b7c-6e8a-4b4e-9f35-0a1f2c3d4e5f"
    static let claims = #"{"access_token":{"xms_cc":{"values":["CP1"]}}}"#
    static let encodedClaims = "%7B%22access_token%22%3A%7B%22xms_cc%22%3A%7B%22values%22%3A%5B%22CP1%22%5D%7D%7D%7D"

    static func encoded(_ form: [(String, String)]) -> String { FormEncoding.encode(form) }

    @Test("authorization code: code, redirect URI, verifier, decorated scopes, client_info (§3.2)")
    func authorizationCode() {
        let request = AuthorizationCodeRequest(
            clientID: Self.client, code: "0.AXcode", redirectURI: "http://localhost:53123",
            codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", scopes: ["User.Read"], claims: Self.claims)
        #expect(request.grantType == "authorization_code")
        #expect(
            Self.encoded(request.form)
                == "client_id=\(Self.client)&grant_type=authorization_code&code=0.AXcode"
                + "&redirect_uri=http%3A%2F%2Flocalhost%3A53123&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
                + "&scope=User.Read%20openid%20profile%20offline_access&client_info=1&claims=\(Self.encodedClaims)")
    }

    @Test("refresh token: the token, decorated scopes once each, client_info (§3.2)")
    func refreshToken() {
        let request = RefreshTokenRequest(
            clientID: Self.client, refreshToken: "0.ARrefresh", scopes: ["User.Read", "openid", "Mail.Read"],
            claims: nil)
        #expect(request.grantType == "refresh_token")
        #expect(
            Self.encoded(request.form)
                == "client_id=\(Self.client)&grant_type=refresh_token&refresh_token=0.ARrefresh"
                + "&scope=User.Read%20openid%20Mail.Read%20profile%20offline_access&client_info=1")
    }

    @Test("device code start: client and decorated scopes, claims when present (§4)")
    func deviceAuthorization() {
        let plain = DeviceAuthorizationRequest(clientID: Self.client, scopes: ["User.Read"], claims: nil)
        #expect(
            Self.encoded(plain.form) == "client_id=\(Self.client)&scope=User.Read%20openid%20profile%20offline_access")
        let withClaims = DeviceAuthorizationRequest(clientID: Self.client, scopes: [], claims: Self.claims)
        #expect(
            Self.encoded(withClaims.form)
                == "client_id=\(Self.client)&scope=openid%20profile%20offline_access&claims=\(Self.encodedClaims)")
    }

    @Test("device code poll: RFC 8628's grant type, the device code, client_info and the scopes (§4)")
    func deviceCodePoll() {
        let request = DeviceCodeTokenRequest(
            clientID: Self.client, deviceCode: "BAQABAAEAAAAm", scopes: ["User.Read"], claims: nil)
        #expect(request.grantType == "urn:ietf:params:oauth:grant-type:device_code")
        #expect(
            Self.encoded(request.form)
                == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&client_id=\(Self.client)"
                + "&device_code=BAQABAAEAAAAm&client_info=1&scope=User.Read%20openid%20profile%20offline_access")
    }

    @Test("authorization request: code with PKCE S256, state, nonce, client_info, correlation id, then options (§2.1)")
    func authorization() throws {
        let correlationID = try #require(UUID(uuidString: "3F1C0C2E-5B0E-4C55-9B1E-2C8F0E7D9A10"))
        var request = AuthorizationRequest(
            clientID: Self.client, redirectURI: "http://localhost:53123", scopes: ["User.Read"], state: "s1",
            nonce: "n1", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", correlationID: correlationID)
        let base =
            "client_id=\(Self.client)&response_type=code&redirect_uri=http%3A%2F%2Flocalhost%3A53123"
            + "&scope=User.Read%20openid%20profile%20offline_access&state=s1&nonce=n1"
            + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&client_info=1"
            + "&client-request-id=3f1c0c2e-5b0e-4c55-9b1e-2c8f0e7d9a10"
        let endpoint = try #require(URL(string: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize"))
        #expect(request.url(endpoint: endpoint).absoluteString == endpoint.absoluteString + "?" + base)
        request.prompt = "select_account"
        request.loginHint = "megan@contoso.com"
        request.domainHint = "contoso.com"
        request.claims = Self.claims
        request.extraParameters = ["z": "2", "a": "1"]
        #expect(
            Self.encoded(request.query)
                == base + "&prompt=select_account&login_hint=megan%40contoso.com&domain_hint=contoso.com"
                + "&claims=\(Self.encodedClaims)&a=1&z=2")
    }

    @Test("end session: the logout endpoint with the client id (§6)")
    func endSession() throws {
        let endpoint = try #require(URL(string: "https://login.microsoftonline.com/common/oauth2/v2.0/logout"))
        #expect(
            EndSessionRequest(clientID: Self.client).url(endpoint: endpoint).absoluteString
                == "https://login.microsoftonline.com/common/oauth2/v2.0/logout?client_id=\(Self.client)")
    }

    @Test("instance discovery: api-version 1.1 and the authority's v2 authorize endpoint (§1.2)")
    func instanceDiscovery() throws {
        let remote = InstanceDiscoveryRequest(authority: try Authority("https://login.contoso.example/tenant"))
        #expect(
            remote.url.absoluteString
                == "https://login.microsoftonline.com/common/discovery/instance?api-version=1.1"
                + "&authorization_endpoint=https://login.contoso.example/tenant/oauth2/v2.0/authorize")
        let loopback = InstanceDiscoveryRequest(authority: try Authority("http://127.0.0.1:8443/organizations"))
        #expect(loopback.url.absoluteString.hasPrefix("http://127.0.0.1:8443/common/discovery/instance?"))
    }

    static let nativeSteps: [(NativeAuthRequest.Step, String, String)] = [
        (.signInInitiate(username: "jane@example.com"), "oauth2/v2.0/initiate", "username=jane%40example.com&CT"),
        (.signInChallenge(continuationToken: "ct1"), "oauth2/v2.0/challenge", "continuation_token=ct1&CT"),
        (
            .signInToken(.oob(continuationToken: "ct1", code: "12345678"), scopes: ["api://a/x"]),
            "oauth2/v2.0/token",
            "grant_type=oob&continuation_token=ct1&oob=12345678"
                + "&scope=api%3A%2F%2Fa%2Fx%20openid%20profile%20offline_access&client_info=true"
        ),
        (
            .signInToken(.password(continuationToken: "ct1", username: "jane@example.com", password: "pw"), scopes: []),
            "oauth2/v2.0/token",
            "grant_type=password&continuation_token=ct1&username=jane%40example.com&password=pw&CT"
                + "&scope=openid%20profile%20offline_access&client_info=true"
        ),
        (
            .signInToken(.continuationToken("ct9", username: "jane@example.com"), scopes: []), "oauth2/v2.0/token",
            "grant_type=continuation_token&continuation_token=ct9&username=jane%40example.com&CT"
                + "&scope=openid%20profile%20offline_access&client_info=true"
        ),
        (
            .signUpStart(username: "sam@example.com", password: "pw", attributes: ["displayName": "Sam", "city": "X"]),
            "signup/v1.0/start",
            "username=sam%40example.com&CT&password=pw"
                + "&attributes=%7B%22city%22%3A%22X%22%2C%22displayName%22%3A%22Sam%22%7D"
        ),
        (
            .signUpStart(username: "sam@example.com", password: nil, attributes: [:]), "signup/v1.0/start",
            "username=sam%40example.com&CT"
        ),
        (.signUpChallenge(continuationToken: "ct2"), "signup/v1.0/challenge", "continuation_token=ct2&CT"),
        (
            .signUpContinue(continuationToken: "ct2", .oob(code: "1234")), "signup/v1.0/continue",
            "continuation_token=ct2&grant_type=oob&oob=1234"
        ),
        (
            .signUpContinue(continuationToken: "ct2", .password("pw")), "signup/v1.0/continue",
            "continuation_token=ct2&grant_type=password&password=pw"
        ),
        (
            .signUpContinue(continuationToken: "ct2", .attributes(["country": "NZ"])), "signup/v1.0/continue",
            "continuation_token=ct2&grant_type=attributes&attributes=%7B%22country%22%3A%22NZ%22%7D"
        ),
        (.resetStart(username: "jane@example.com"), "resetpassword/v1.0/start", "username=jane%40example.com&CT"),
        (.resetChallenge(continuationToken: "ct3"), "resetpassword/v1.0/challenge", "continuation_token=ct3&CT"),
        (
            .resetContinue(continuationToken: "ct3", code: "4321"), "resetpassword/v1.0/continue",
            "continuation_token=ct3&grant_type=oob&oob=4321"
        ),
        (
            .resetSubmit(continuationToken: "ct4", newPassword: "new-pw"), "resetpassword/v1.0/submit",
            "continuation_token=ct4&new_password=new-pw"
        ),
        (.resetPoll(continuationToken: "ct5"), "resetpassword/v1.0/poll_completion", "continuation_token=ct5"),
        (
            .signInChallenge(continuationToken: "ct6", methodID: "m-1"), "oauth2/v2.0/challenge",
            "continuation_token=ct6&CT&id=m-1"
        ),
        (.signInIntrospect(continuationToken: "ct6"), "oauth2/v2.0/introspect", "continuation_token=ct6"),
        (
            .signInToken(.mfaOOB(continuationToken: "ct7", code: "87654321"), scopes: [], claims: #"{"a":1}"#),
            "oauth2/v2.0/token",
            "grant_type=mfa_oob&continuation_token=ct7&oob=87654321&scope=openid%20profile%20offline_access"
                + "&client_info=true&claims=%7B%22a%22%3A1%7D"
        ),
        (.registerIntrospect(continuationToken: "ct8"), "register/v1.0/introspect", "continuation_token=ct8"),
        (
            .registerChallenge(continuationToken: "ct8", channel: "sms", target: "+15555550100"),
            "register/v1.0/challenge",
            "continuation_token=ct8&challenge_type=oob&challenge_target=%2B15555550100&challenge_channel=sms"
        ),
        (
            .registerContinue(continuationToken: "ct9", code: "1111"), "register/v1.0/continue",
            "continuation_token=ct9&grant_type=oob&oob=1111"
        ),
        (
            .registerContinue(continuationToken: "ct9", code: nil), "register/v1.0/continue",
            "continuation_token=ct9&grant_type=continuation_token"
        ),
        (
            .signUpStart(
                username: "sam@example.com", password: nil,
                attributes: ["age": 30, "newsletter": true, "height": 1.8, "city": "Oslo"]),
            "signup/v1.0/start",
            "username=sam%40example.com&CT"
                + "&attributes=%7B%22age%22%3A30%2C%22city%22%3A%22Oslo%22%2C%22height%22%3A1.8%2C%22newsletter%22%3Atrue%7D"
        ),
    ]

    @Test("native auth: each step's path and form, client_id first and the app's challenge types where asked")
    func nativeAuth() {
        for (step, path, fields) in Self.nativeSteps {
            let request = NativeAuthRequest(
                clientID: Self.client, challengeTypes: "oob password redirect", capabilities: nil, step: step)
            #expect(request.path == path)
            let expected = fields.replacingOccurrences(of: "&CT", with: "&challenge_type=oob%20password%20redirect")
            #expect(Self.encoded(request.form) == "client_id=\(Self.client)&" + expected, "\(path)")
        }
    }

    @Test("native auth: challenge types on the wire, redirect always added; MSAL's name for one-time codes is OOB")
    func nativeAuthChallengeTypes() {
        #expect(NativeAuthChallengeTypes([.oob, .password]).wireValue == "oob password redirect")
        #expect(NativeAuthChallengeTypes([.password]).wireValue == "password redirect")
        #expect(NativeAuthChallengeTypes().wireValue == "redirect")
        #expect(MSALNativeAuthChallengeTypes([.OOB]).wireValue == "oob redirect")
        #expect(MSALNativeAuthChallengeTypes.OOB == NativeAuthChallengeTypes.oob)
    }

    @Test("native auth: capabilities go on the steps that start a flow, and only there")
    func nativeAuthCapabilities() {
        let capabilities = NativeAuthCapabilities([.mfaRequired, .registrationRequired]).wireValue
        #expect(capabilities == "mfa_required registration_required")
        #expect(NativeAuthCapabilities().wireValue == nil)
        for (step, path, _) in Self.nativeSteps {
            let form = NativeAuthRequest(
                clientID: Self.client, challengeTypes: "oob password redirect", capabilities: capabilities, step: step
            ).form
            let starts = ["oauth2/v2.0/initiate", "signup/v1.0/start", "resetpassword/v1.0/start"].contains(path)
            #expect(
                form.contains { $0 == ("capabilities", "mfa_required registration_required") } == starts, "\(path)")
        }
    }
}
