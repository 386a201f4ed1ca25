import Foundation
import Testing

@testable import MSAL

@Suite("Tier 1: PKCE, authorities, scopes, claims, cache format")
struct ProtocolUnitTests {
    @Test("base64url round-trips every length, with or without padding; other input is refused")
    func base64URL() {
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 251) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(encoded) == Data(bytes))
            #expect(Base64URL.decode(Data(bytes).base64EncodedString()) == Data(bytes), "padded standard alphabet")
        }
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("YWJj==") == Data("abc".utf8))
        #expect(Base64URL.decode("YWJjZ") == nil)
        #expect(Base64URL.decode("YW*j") == nil)
    }

    @Test("a JWT is exactly three base64url parts of which the first two are JSON objects; anything else is refused")
    func jwtParts() throws {
        let header = Base64URL.encode(Data(#"{"alg":"RS256","kid":"k1"}"#.utf8))
        let claims = Base64URL.encode(Data(#"{"sub":"s","exp":1700000000,"aud":["a","b"],"x":null}"#.utf8))
        let jwt = try JWT("\(header).\(claims).c2ln")
        #expect(jwt.header["kid"] as? String == "k1")
        #expect(jwt.string("sub") == "s" && jwt.numericDate("exp") == 1_700_000_000 && jwt.audiences == ["a", "b"])
        #expect(jwt.claims["x"] == nil)
        #expect(jwt.signingInput == "\(header).\(claims)")
        #expect(jwt.signature == Data("sig".utf8))
        #expect(try JWT("\(header).\(claims).").signature.isEmpty)
        for malformed in [
            "", ".", "..", "\(header).\(claims)", "\(header).\(claims).c2ln.c2ln", "\(header)..c2ln",
            ".\(claims).c2ln", "\(header).\(claims).c2l*", "\(header).e30é.c2ln", "\(header).WzFd.c2ln",
        ] {
            #expect(throws: MSALError.self, "\(malformed)") { try JWT(malformed) }
        }
    }

    @Test("equalsIgnoringCase agrees with caseInsensitiveCompare, byte by byte for ASCII and through Foundation else")
    func equalsIgnoringCase() {
        let pairs = [
            ("AccessToken", "accesstoken"), ("AccessToken", "AccessTokens"), ("", ""), ("a", ""), ("@[", "`{"),
            ("Contoso.onmicrosoft.com", "CONTOSO.ONMICROSOFT.COM"), ("Straße", "STRASSE"), ("Ärger", "ärger"),
            ("é", "e\u{301}"), ("x", "é"),
        ]
        for (lhs, rhs) in pairs {
            let expected = lhs.caseInsensitiveCompare(rhs) == .orderedSame
            #expect(lhs.equalsIgnoringCase(rhs) == expected, "\(lhs) vs \(rhs)")
            #expect(rhs.equalsIgnoringCase(lhs) == expected, "\(rhs) vs \(lhs)")
        }
        #expect("AccessToken".equalsIgnoringCase("aCCESStOKEN"))
        #expect(!"AccessToken".equalsIgnoringCase("AccessTokem"))
    }

    @Test("PKCE S256 matches RFC 7636 appendix B")
    func pkceVector() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE(random: SystemRandomSource()).verifier.count == 43)
    }

    @Test(
        "authorities are normalised",
        arguments: [
            (
                "https://login.microsoftonline.com/common", "https://login.microsoftonline.com/common",
                Authority.Kind.aad
            ),
            (
                "https://LOGIN.microsoftonline.com/Contoso.OnMicrosoft.com/v2.0",
                "https://login.microsoftonline.com/contoso.onmicrosoft.com", .aad
            ),
            ("https://login.microsoftonline.us/organizations/", "https://login.microsoftonline.us/organizations", .aad),
            ("https://contoso.ciamlogin.com/", "https://contoso.ciamlogin.com/contoso.onmicrosoft.com", .ciam),
            (
                "https://contoso.ciamlogin.com/c1a2b3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                "https://contoso.ciamlogin.com/c1a2b3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d", .ciam
            ),
            (
                "https://fabrikamb2c.b2clogin.com/fabrikamb2c.onmicrosoft.com/B2C_1_signin/extra",
                "https://fabrikamb2c.b2clogin.com/fabrikamb2c.onmicrosoft.com/B2C_1_signin", .b2c
            ),
            ("http://127.0.0.1:8400/organizations", "http://127.0.0.1:8400/organizations", .aad),
            ("https://accounts.example.com/realms/demo", "https://accounts.example.com/realms/demo", .oidc),
            ("http://[::1]:8400/common", "http://[::1]:8400/common", .aad),
            // An internationalised host in its ASCII form, the form the URL itself and the cache's environment use.
            ("https://bücher.example/realms/demo", "https://xn--bcher-kva.example/realms/demo", .oidc),
        ])
    func authorityNormalisation(input: String, expected: String, kind: Authority.Kind) throws {
        let authority = try Authority(input)
        #expect(authority.url.absoluteString == expected)
        #expect(authority.kind == kind)
    }

    @Test(
        "plain http is refused off loopback; a URL without tenant is refused",
        arguments: [
            "http://login.microsoftonline.com/common", "https://login.microsoftonline.com", "not a url",
            "http://127.evil.example/common", "http://127.0.0.1.evil.example/common", "http://127.0.0.999/common",
        ])
    func badAuthorities(input: String) {
        #expect(throws: MSALError.self) { try Authority(input) }
    }

    @Test("a declared CIAM authority and a multi-tenant one resolve to the home tenant")
    func tenantReplacement() throws {
        let common = try Authority("https://login.microsoftonline.com/common")
        #expect(common.isMultiTenant)
        #expect(
            common.replacingTenant("8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b").url.absoluteString
                == "https://login.microsoftonline.com/8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b")
        let custom = try Authority("https://login.contoso.com/tenant", kind: .ciam)
        #expect(custom.kind == .ciam)
    }

    @Test("scopes: decorated with the OIDC ones, subset matching ignores case, declined excludes reserved")
    func scopes() {
        #expect(Scopes.decorated(["User.Read", "openid"]) == ["User.Read", "openid", "profile", "offline_access"])
        #expect(Scopes.isSubset(["user.read"], of: ["user.read", "mail.read", "openid"]))
        #expect(!Scopes.isSubset(["Files.Read"], of: ["user.read"]))
        #expect(Scopes.isSubset(["https://graph.microsoft.com/User.Read"], of: ["user.read"]))
        #expect(Scopes.isSubset(["User.Read"], of: ["00000003-0000-0000-c000-000000000000/user.read"]))
        for list in ["openid profile User.Read", "  a  b ", "", "api://x/.default", "é ü"] {
            #expect(Scopes.split(list) == list.split(separator: " ").map(String.init), "\(list)")
        }
        #expect(!Scopes.isSubset(["api://b7c4e1a9/User.Read"], of: ["user.read"]))
        // The cache's sets also hold the scopes as the server wrote them; any case still matches.
        let granted: Set<String> = ["user.read", "User.Read", "mail.send", "Mail.Send"]
        for request in [
            ["User.Read"], ["USER.READ"], ["user.read", "Mail.Send"], ["https://graph.microsoft.com/User.Read"],
        ] {
            #expect(Scopes.isSubset(request, of: granted), "\(request)")
        }
        #expect(!Scopes.isSubset(["User.Read", "Mail.Read"], of: granted))
        #expect(
            Scopes.declined(requested: ["User.Read", "Mail.Read", "offline_access"], granted: ["User.Read", "openid"])
                == ["Mail.Read"])
        #expect(Scopes.declined(requested: ["https://graph.microsoft.com/User.Read"], granted: ["User.Read"]).isEmpty)
    }

    @Test("claims requests merge with client capabilities")
    func claimsMerge() throws {
        let merged = try #require(
            try ClaimsRequest.merged(#"{"access_token":{"nbf":{"essential":true,"value":"1"}}}"#, capabilities: ["cp1"])
        )
        #expect(merged == #"{"access_token":{"nbf":{"essential":true,"value":"1"},"xms_cc":{"values":["cp1"]}}}"#)
        #expect(try ClaimsRequest.merged(nil, capabilities: []) == nil)
        #expect(throws: MSALError.self) { try ClaimsRequest.merged("eyJub3QiOiJqc29uIn0=", capabilities: []) }
    }

    @Test("WWW-Authenticate claims challenges parse by name, in any order")
    func claimsChallenge() {
        let claims = Data(#"{"access_token":{"nbf":{"essential":true, "value":"1635527790"}}}"#.utf8)
            .base64EncodedString()
        let header =
            #"Bearer realm="", claims="\#(claims)", error="insufficient_claims", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize""#
        #expect(ClaimsChallenge(wwwAuthenticate: header)?.claims.contains("1635527790") == true)
        #expect(ClaimsChallenge(wwwAuthenticate: #"Bearer realm="", error="invalid_token""#) == nil)
    }

    @Test("Retry-After as seconds or an HTTP date")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(RetryAfter.seconds("7", now: now) == 7)
        #expect(RetryAfter.seconds("2.5", now: now) == 2.5)
        #expect(RetryAfter.seconds("Wed, 18 Nov 2026 11:06:50 GMT", now: now) == 10)
        #expect(RetryAfter.seconds("Wed, 18 Nov 2026 11:06:30 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
    }

    @Test("timestamps beyond Int's range (found by fuzzing) are read and written back without trapping")
    func hugeTimestamps() throws {
        let text =
            #"{"AccessToken": {"k": {"credential_type": "AccessToken", "secret": "s", "home_account_id": "h", "environment": "e", "#
            + #""client_id": "c", "target": "t", "realm": "r", "expires_on": "1e300", "cached_at": 1e999, "extended_expires_on": -1e300}}}"#
        let contents = try UnifiedCacheFormat.decode(Data(text.utf8))
        let again = try UnifiedCacheFormat.decode(UnifiedCacheFormat.encode(contents))
        #expect(again.accessTokens.count == 1)
        #expect(again.accessTokens.first?.secret == "s")
    }

    @Test("a serialized cache's buffer is kept for the next write once its Data is gone, never while it lives")
    func reusedSerializationBuffer() throws {
        let text =
            #"{"AccessToken": {"k": {"credential_type": "AccessToken", "secret": "secret-one", "home_account_id": "h", "#
            + #""environment": "e", "client_id": "c", "target": "t", "realm": "r", "expires_on": "2", "cached_at": "1"}}}"#
        var contents = try UnifiedCacheFormat.decode(Data(text.utf8))
        let buffers = SerializationBuffers()
        do {
            let first = try UnifiedCacheFormat.encode(contents, buffers: buffers)
            let expected = Data(first)
            contents.accessTokens[0].secret = "secret-two"
            let second = try UnifiedCacheFormat.encode(contents, buffers: buffers)
            #expect(first == expected, "the second write must not reuse the first's live buffer")
            #expect(try UnifiedCacheFormat.decode(second).accessTokens.first?.secret == "secret-two")
        }
        let kept = try #require(buffers.take(atLeast: 1), "a buffer is kept once both Data values are gone")
        buffers.giveBack(kept.pointer, capacity: kept.capacity)
        contents.accessTokens[0].secret = "secret-six"
        let third = try UnifiedCacheFormat.encode(contents, buffers: buffers)
        #expect(try UnifiedCacheFormat.decode(third).accessTokens.first?.secret == "secret-six")
        #expect(buffers.take(atLeast: 1) == nil, "the kept buffer is in use by the third write")
    }

    @Test("correlation ids are version 4 UUIDs with RFC 4122's variant, and differ")
    func correlationIDs() {
        let ids = CorrelationIDs(seed: 7)
        let made = (0..<64).map { _ in ids.next() }
        #expect(Set(made).count == 64)
        for id in made {
            #expect(id.uuid.6 >> 4 == 4)
            #expect(id.uuid.8 >> 6 == 0b10)
        }
    }

    @Test("the unified cache round-trips MSAL Python's sample and keeps unknown data")
    func cacheFormat() throws {
        let sample = """
            {"AccessToken":{"k":{"credential_type":"AccessToken","secret":"at","home_account_id":"u.t","environment":"login.microsoftonline.com",
              "client_id":"c","target":"User.Read openid","realm":"t","token_type":"Bearer","cached_at":"1700000000","expires_on":1700004442,
              "extended_expires_on":"1700004442","refresh_on":"1700002221","x_custom":{"a":1}}},
             "RefreshToken":{"k":{"credential_type":"RefreshToken","secret":"rt","home_account_id":"u.t","environment":"login.microsoftonline.com",
              "client_id":"c","target":"User.Read","last_modification_time":"1700000000","family_id":"1"}},
             "IdToken":{},"Account":{"k":{"home_account_id":"u.t","environment":"login.microsoftonline.com","realm":"t","local_account_id":"u",
              "username":"Ada@Contoso.com","authority_type":"MSSTS","account_source":"authorization_code"}},
             "AppMetadata":{"k":{"client_id":"c","environment":"login.microsoftonline.com","family_id":"1"}},
             "SomethingNew":{"keep":"me"}}
            """
        let contents = try UnifiedCacheFormat.decode(Data(sample.utf8))
        #expect(contents.accessTokens.first?.expiresOn == Date(timeIntervalSince1970: 1_700_004_442))
        #expect(contents.refreshTokens.first?.familyID == "1")
        #expect(contents.accounts.first?.username == "Ada@Contoso.com")
        let written = String(decoding: try UnifiedCacheFormat.encode(contents), as: UTF8.self)
        #expect(written.contains(#""expires_on": "1700004442""#))
        #expect(written.contains("SomethingNew"))
        #expect(written.contains("x_custom"))
        #expect(written.contains("u.t-login.microsoftonline.com-accesstoken-c-t-user.read openid"))
        #expect(throws: MSALError.self) { try UnifiedCacheFormat.decode(Data("[1,2]".utf8)) }
    }
}
