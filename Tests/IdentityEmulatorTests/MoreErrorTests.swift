import Foundation
import NIOCore
import Testing

@testable import IdentityEmulator

@Suite("More negative cases: prompt=none, user realm, admin API peers")
struct MoreErrorTests {
    @Test("prompt=none with two signed-in accounts and no hint redirects with interaction_required")
    func promptNoneWithTwoAccounts() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            _ = try await emulator.signInInteractively(AuthorizationRequest(), browser: browser)
            var login = AuthorizationRequest()
            login.prompt = "login"
            _ = try await emulator.signInInteractively(
                login, browser: browser, user: "AdeleV@contoso.onmicrosoft.com", password: "Adele-Demo-Pass2")
            var silent = AuthorizationRequest()
            silent.prompt = "none"
            guard case .redirect(let location) = try await browser.open(silent.path) else {
                Issue.record("expected a redirect")
                return
            }
            #expect(redirectParameters(location)["error"] == "interaction_required")

            silent.loginHint = "AdeleV@contoso.onmicrosoft.com"
            guard case .redirect(let hinted) = try await browser.open(silent.path) else {
                Issue.record("expected a redirect")
                return
            }
            let code = try #require(redirectParameters(hinted)["code"])
            let tokens = try await emulator.token(silent.tenant, silent.redemption(code: code))
            #expect(
                try JWTInspection.claims(try #require(try tokens.string("id_token")))["preferred_username"] as? String
                    == "AdeleV@contoso.onmicrosoft.com")
        }
    }

    @Test("prompt=none for scopes never consented redirects with consent_required")
    func promptNoneNeedsConsent() async throws {
        try await TestEmulator.with { emulator in
            let browser = ScriptedBrowser(emulator)
            _ = try await emulator.signInInteractively(AuthorizationRequest(), browser: browser)
            var silent = AuthorizationRequest()
            silent.prompt = "none"
            silent.scope = "Mail.Read openid profile offline_access"
            guard case .redirect(let location) = try await browser.open(silent.path) else {
                Issue.record("expected a redirect")
                return
            }
            #expect(redirectParameters(location)["error"] == "consent_required")
        }
    }

    @Test("user realm: a managed user, in the shape MSAL Go requires")
    func userRealm() async throws {
        try await TestEmulator.with { emulator in
            let result = try await emulator.get("/common/userrealm/MeganB@contoso.onmicrosoft.com?api-version=1.0")
            #expect(result.status == 200)
            #expect(
                orderedTopLevelKeys(result.body) == [
                    "ver", "account_type", "domain_name", "cloud_instance_name", "cloud_audience_urn",
                ])
            #expect(try result.string("account_type") == "Managed")
            #expect(try result.string("domain_name") == "contoso.onmicrosoft.com")
        }
    }

    @Test(
        "the admin API answers loopback peers only",
        arguments: [
            ("127.0.0.1", true), ("127.8.9.10", true), ("::1", true), ("10.0.0.5", false), ("192.168.1.20", false),
            ("2001:db8::1", false),
        ])
    func loopbackOnly(address: String, allowed: Bool) throws {
        let socket = try SocketAddress(ipAddress: address, port: 50000)
        #expect(EmulatorRequestContext.isLoopback(socket) == allowed)
        #expect(EmulatorRequestContext.isLoopback(nil) == false)
    }

    @Test("oversized bodies are refused with 413; malformed forms get Entra errors, not crashes")
    func hostileInput() async throws {
        try await TestEmulator.with { emulator in
            let huge = String(repeating: "a", count: 2 << 20)
            let big = try await emulator.token("organizations", [("grant_type", "password"), ("junk", huge)])
            #expect(big.status == 413)
            let garbage = try await emulator.post(
                "/organizations/oauth2/v2.0/token", form: [("%%%", "&&&"), ("grant_type", "%zz")])
            #expect(garbage.status == 400)
            #expect(try garbage.string("error") != nil)
        }
    }

    @Test(
        "base64url decoding: unpadded input round-trips; padding, other characters and impossible lengths are refused")
    func base64URL() {
        for length in 0..<8 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 251) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == Data(bytes))
        }
        #expect(Base64URL.decode("_-8") == Data([0xFF, 0xEF]))
        for bad in ["QQ==", "Q+8", "Q/8", "Q Q", "A", "AAAAA"] { #expect(Base64URL.decode(bad) == nil, "\(bad)") }
    }

    @Test(
        "base64url encoding is Foundation's base64 with the URL alphabet and no padding, alone or appended to a buffer")
    func base64URLEncoding() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 251) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                    of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            var buffer = Array("x.".utf8)
            Base64URL.append(bytes, to: &buffer)
            #expect(String(decoding: buffer, as: UTF8.self) == "x." + expected)
        }
    }

    @Test("JSON answers are compact, keep their member order and escape what JSON requires")
    func jsonSerialization() throws {
        let text = "q\"b\\s/n\nr\rt\tc\u{01} é\""
        let value = JSONValue.object([
            ("b", .string(text)), ("a", .array([.int(-3), .double(1.5), .bool(true), .null])), ("e", .object([])),
        ])
        #expect(value.serialized == #"{"b":"q\"b\\s/n\nr\rt\tc\u0001 é\"","a":[-3,1.5,true,null],"e":{}}"#)
        let parsed = try #require(try JSONSerialization.jsonObject(with: value.data) as? [String: Any])
        #expect(parsed["b"] as? String == text)
    }
}
