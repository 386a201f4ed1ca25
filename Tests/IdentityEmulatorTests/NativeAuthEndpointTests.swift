import Foundation
import IdentityEmulator
import Testing

@Suite("Native-auth endpoints: wire shapes and errors")
struct NativeAuthEndpointTests {
    static let tenant = "contosocustomers.onmicrosoft.com"

    /// The code in the outbox's newest message.
    private func lastCode(_ emulator: TestEmulator) async throws -> String {
        let outbox = try await emulator.get("/_emulator/outbox").json
        return try #require(
            ((outbox["messages"] as? [any Sendable])?.last as? [String: any Sendable])?["code"] as? String)
    }

    private func post(
        _ emulator: TestEmulator, _ path: String, _ form: [(String, String)],
        client: String = Directory.DemoIDs.externalPublicClient, tenant: String = tenant
    ) async throws -> HTTPResult {
        try await emulator.post("/\(tenant)/\(path)", form: [("client_id", client)] + form)
    }

    @Test(
        "sign-in: initiate and challenge answers, the errors of the start, continuation tokens single-use and per client"
    )
    func signInWire() async throws {
        try await TestEmulator.with { emulator in
            let noRedirect = try await post(
                emulator, "oauth2/v2.0/initiate",
                [("username", "jane@example.com"), ("challenge_type", "password oob")])
            try #expect(noRedirect.status == 400 && (noRedirect.string("error")) == "unsupported_challenge_type")
            let workforce = try await post(
                emulator, "oauth2/v2.0/initiate",
                [
                    ("username", "MeganB@contoso.onmicrosoft.com"),
                    ("challenge_type", "password redirect"),
                ],
                client: emulator.ids.publicClient, tenant: "contoso.onmicrosoft.com")
            try #expect(workforce.status == 400 && (workforce.string("error")) == "unauthorized_client")
            let unknown = try await post(
                emulator, "oauth2/v2.0/initiate",
                [("username", "nobody@example.com"), ("challenge_type", "password redirect")])
            try #expect(
                (unknown.string("error")) == "user_not_found" && (unknown.json["error_codes"] as? [Int]) == [50034])
            let badName = try await post(
                emulator, "oauth2/v2.0/initiate",
                [("username", "not-an-email"), ("challenge_type", "password redirect")])
            try #expect((badName.json["error_codes"] as? [Int]) == [90100])

            let start = try await post(
                emulator, "oauth2/v2.0/initiate",
                [("username", "sam@example.com"), ("challenge_type", "oob password redirect")])
            let token = try #require(try start.string("continuation_token"))
            let challenge = try await post(
                emulator, "oauth2/v2.0/challenge",
                [("continuation_token", token), ("challenge_type", "oob password redirect")])
            #expect(challenge.status == 200)
            let json = try challenge.json
            #expect(json["challenge_type"] as? String == "oob" && json["binding_method"] as? String == "prompt")
            #expect(
                json["challenge_target_label"] as? String == "s***@e******.com"
                    && json["challenge_channel"] as? String == "email")
            #expect(json["code_length"] as? Int == 8 && json["interval"] as? Int == 300)
            let replay = try await post(
                emulator, "oauth2/v2.0/challenge", [("continuation_token", token), ("challenge_type", "oob redirect")])
            try #expect(
                (replay.string("error")) == "invalid_request" && (replay.json["error_codes"] as? [Int]) == [55000])

            let next = try #require(json["continuation_token"] as? String)
            let foreign = try await emulator.token(
                Self.tenant,
                [
                    ("client_id", emulator.ids.publicClient), ("grant_type", "oob"),
                    ("continuation_token", next), ("oob", "00000000"),
                ])
            #expect(foreign.status == 400)

            let passwordUser = try await post(
                emulator, "oauth2/v2.0/initiate",
                [("username", "jane@example.com"), ("challenge_type", "oob redirect")])
            let redirect = try await post(
                emulator, "oauth2/v2.0/challenge",
                [
                    ("continuation_token", try #require(try passwordUser.string("continuation_token"))),
                    ("challenge_type", "oob redirect"),
                ])
            try #expect(
                (redirect.string("challenge_type")) == "redirect" && (redirect.string("continuation_token")) == nil)

            let jane = try await post(
                emulator, "oauth2/v2.0/initiate",
                [("username", "jane@example.com"), ("challenge_type", "password redirect")])
            let askPassword = try await post(
                emulator, "oauth2/v2.0/challenge",
                [
                    ("continuation_token", try #require(try jane.string("continuation_token"))),
                    ("challenge_type", "password redirect"),
                ])
            let wrong = try await emulator.token(
                Self.tenant,
                [
                    ("client_id", emulator.ids.externalPublicClient), ("grant_type", "password"),
                    ("continuation_token", try #require(try askPassword.string("continuation_token"))),
                    ("password", "Not-Her-Pass9"),
                ])
            try #expect(
                wrong.status == 400 && (wrong.string("error")) == "invalid_grant"
                    && (wrong.json["error_codes"] as? [Int]) == [50126])
        }
    }

    @Test(
        "introspect: the user's email method with a masked hint and a fresh token; a used or expired token is refused")
    func introspectWire() async throws {
        try await TestEmulator.with { emulator in
            let types = ("challenge_type", "oob redirect")
            let start = try await post(emulator, "oauth2/v2.0/initiate", [("username", "sam@example.com"), types])
            let token = try #require(try start.string("continuation_token"))
            let introspect = try await post(emulator, "oauth2/v2.0/introspect", [("continuation_token", token)])
            #expect(introspect.status == 200)
            let methods = try #require(try introspect.json["methods"] as? [[String: any Sendable]])
            #expect(
                methods.count == 1 && methods[0]["id"] is String && methods[0]["challenge_type"] as? String == "oob")
            #expect(
                methods[0]["challenge_channel"] as? String == "email"
                    && methods[0]["login_hint"] as? String == "s***@e******.com")
            let next = try #require(try introspect.string("continuation_token"))
            #expect(next != token)
            let used = try await post(emulator, "oauth2/v2.0/introspect", [("continuation_token", token)])
            try #expect(
                used.status == 400 && (used.string("error")) == "invalid_request"
                    && (used.json["error_codes"] as? [Int]) == [55000])
            let challenge = try await post(emulator, "oauth2/v2.0/challenge", [("continuation_token", next), types])
            try #expect((challenge.string("challenge_type")) == "oob")

            let later = try await post(emulator, "oauth2/v2.0/initiate", [("username", "sam@example.com"), types])
            try await emulator.setClockOffset(901)
            let expired = try await post(
                emulator, "oauth2/v2.0/introspect",
                [("continuation_token", try #require(try later.string("continuation_token")))])
            try #expect(expired.status == 400 && (expired.string("error")) == "expired_token")
        }
    }

    @Test("sign-up: invalid_attributes, credential_required and attributes_required bodies, password suberrors")
    func signUpWire() async throws {
        try await TestEmulator.with { emulator in
            let types = ("challenge_type", "oob password redirect")
            let invalid = try await post(
                emulator, "signup/v1.0/start",
                [("username", "a@example.org"), types, ("attributes", #"{"country":"nz"}"#)])
            try #expect((invalid.string("suberror")) == "attribute_validation_failed")
            try #expect(
                (invalid.json["invalid_attributes"] as? [[String: any Sendable]])?.first?["name"] as? String
                    == "country")
            let weak = try await post(
                emulator, "signup/v1.0/start", [("username", "a@example.org"), types, ("password", "abc")])
            try #expect((weak.string("error")) == "invalid_grant" && (weak.string("suberror")) == "password_too_short")
            let exists = try await post(emulator, "signup/v1.0/start", [("username", "jane@example.com"), types])
            try #expect((exists.string("error")) == "user_already_exists")

            let start = try await post(emulator, "signup/v1.0/start", [("username", "a@example.org"), types])
            let challenge = try await post(
                emulator, "signup/v1.0/challenge",
                [("continuation_token", try #require(try start.string("continuation_token"))), types])
            let code = try await lastCode(emulator)
            let verified = try await post(
                emulator, "signup/v1.0/continue",
                [
                    ("continuation_token", try #require(try challenge.string("continuation_token"))),
                    ("grant_type", "oob"), ("oob", code),
                ])
            try #expect((verified.string("error")) == "credential_required")
            let askPassword = try await post(
                emulator, "signup/v1.0/challenge",
                [("continuation_token", try #require(try verified.string("continuation_token"))), types])
            try #expect((askPassword.string("challenge_type")) == "password")
            let withPassword = try await post(
                emulator, "signup/v1.0/continue",
                [
                    ("continuation_token", try #require(try askPassword.string("continuation_token"))),
                    ("grant_type", "password"), ("password", "Good-Pass-123"),
                ])
            try #expect((withPassword.string("error")) == "attributes_required")
            let required = try #require(try withPassword.json["required_attributes"] as? [[String: any Sendable]])
            #expect(required.map { $0["name"] as? String } == ["displayName", "country"])
            #expect((required[1]["options"] as? [String: any Sendable])?["regex"] as? String == "^[A-Z]{2}$")
            let done = try await post(
                emulator, "signup/v1.0/continue",
                [
                    ("continuation_token", try #require(try withPassword.string("continuation_token"))),
                    ("grant_type", "attributes"),
                    ("attributes", #"{"displayName":"A","country":"NZ"}"#),
                ])
            try #expect(done.status == 200 && (done.json["expires_in"] as? Int) == 900)
        }
    }

    @Test("a configuration file sets sign-up to email codes only, and a bad attribute name is named")
    func settingsFromConfiguration() async throws {
        var directory = Directory.demo
        let index = try #require(directory.tenants.firstIndex { $0.kind == .external })
        directory.tenants[index].nativeAuth = NativeAuthSettings(signUpMethod: .emailCode)
        let configure: (inout EmulatorConfiguration) -> Void = { $0.directory = directory }
        try await TestEmulator.with(configure) { emulator in
            let types = ("challenge_type", "oob redirect")
            let start = try await post(emulator, "signup/v1.0/start", [("username", "code.only@example.org"), types])
            let challenge = try await post(
                emulator, "signup/v1.0/challenge",
                [("continuation_token", try #require(try start.string("continuation_token"))), types])
            let code = try await lastCode(emulator)
            let done = try await post(
                emulator, "signup/v1.0/continue",
                [
                    ("continuation_token", try #require(try challenge.string("continuation_token"))),
                    ("grant_type", "oob"), ("oob", code),
                ])
            #expect(done.status == 200, "\(done.body)")
        }
        directory.tenants[index].nativeAuth = NativeAuthSettings(signUpAttributes: [
            SignUpAttribute(name: "shoeSize", required: true)
        ])
        let bad = directory
        let error = #expect(throws: DirectoryConfigurationError.self) { try bad.validate() }
        #expect(error?.field == "tenants[\(index)].nativeAuth.signUpAttributes[0].name")
    }
}
