import Foundation
import IdentityEmulator
import Testing

/// Sign-in forms are bound to the browser that started the flow, and one-time codes cannot be guessed without limit.
@Suite("Sign-in flows bound to their browser; wrong one-time codes capped")
struct AttemptLimitTests {
    @Test("a sign-in form posted from another browser (a cross-site post) is refused; the real browser still signs in")
    func flowBoundToBrowser() async throws {
        try await TestEmulator.with { emulator in
            let victim = ScriptedBrowser(emulator)
            let page = try await victim.page(AuthorizationRequest().path)
            let form = try #require(page.forms.first { $0.buttons.contains { $0.id == "signin" } })
            let flow = try #require(form.fields.first { $0.name == "flow" }?.value)
            // The attacker's page makes the victim's browser post, or posts itself: either way without the buid
            // cookie of the browser that opened the flow.
            let forged = try await emulator.post(
                form.action,
                form: [
                    ("flow", flow), ("action", "signin"), ("username", "AdeleV@contoso.onmicrosoft.com"),
                    ("password", "Adele-Demo-Pass2"),
                ])
            #expect(forged.status == 400)
            #expect(forged.body.contains("started in another browser"))
            #expect(forged.header("Set-Cookie") == nil)
            let wrongCookie = try await emulator.post(
                form.action, form: [("flow", flow), ("action", "cancel")], headers: [("Cookie", "buid=guessed")])
            #expect(wrongCookie.status == 400)

            let location = try await victim.submitForRedirect(
                page, button: "signin",
                fields: ["username": "MeganB@contoso.onmicrosoft.com", "password": "Megan-Demo-Pass1"])
            #expect(redirectParameters(location)["code"] != nil, "\(location)")
        }
    }

    @Test(
        "native auth: the fifth wrong code voids the code (even the right one then fails); a resend gives one that works"
    )
    func wrongCodesCapped() async throws {
        try await TestEmulator.with { emulator in
            let tenant = "/contosocustomers.onmicrosoft.com/oauth2/v2.0/"
            let client = ("client_id", emulator.ids.externalPublicClient)
            let types = ("challenge_type", "oob redirect")
            let user = "sam@example.com"
            let start = try await emulator.post(tenant + "initiate", form: [client, ("username", user), types])
            let challenge = try await emulator.post(
                tenant + "challenge",
                form: [client, types, ("continuation_token", try #require(try start.string("continuation_token")))])
            #expect(try challenge.string("challenge_type") == "oob", "\(challenge.body)")
            var token = try #require(try challenge.string("continuation_token"))
            let code = try #require(try await Self.lastCode(emulator))
            let wrong = code == "00000000" ? "11111111" : "00000000"
            func redeem(_ oob: String) async throws -> HTTPResult {
                try await emulator.token(
                    "contosocustomers.onmicrosoft.com",
                    [
                        client, ("grant_type", "oob"), ("continuation_token", token), ("oob", oob),
                        ("scope", "openid offline_access"), ("client_info", "true"),
                    ])
            }
            for attempt in 1...NativeFlowLimits.maximumWrongCodes {
                let answer = try await redeem(wrong)
                #expect(try answer.status == 400 && answer.string("suberror") == "invalid_oob_value")
                let tooMany = try answer.string("error_description")?.contains("Too many incorrect") == true
                #expect(tooMany == (attempt == NativeFlowLimits.maximumWrongCodes), "attempt \(attempt)")
            }
            let voided = try await redeem(code)
            #expect(try voided.status == 400 && voided.string("suberror") == "invalid_oob_value")

            let resend = try await emulator.post(
                tenant + "challenge", form: [client, types, ("continuation_token", token)])
            #expect(resend.status == 200, "\(resend.body)")
            token = try #require(try resend.string("continuation_token"))
            let fresh = try #require(try await Self.lastCode(emulator))
            let tokens = try await redeem(fresh)
            #expect(tokens.status == 200)
            #expect(try tokens.string("refresh_token") != nil)
        }
    }

    private static func lastCode(_ emulator: TestEmulator) async throws -> String? {
        let outbox = try await emulator.get("/_emulator/outbox").json
        return (outbox["messages"] as? [[String: any Sendable]])?.last?["code"] as? String
    }
}

/// The cap as the emulator documents it (5, `NativeFlow.maximumWrongCodes`).
enum NativeFlowLimits {
    static let maximumWrongCodes = 5
}
