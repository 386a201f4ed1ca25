import Foundation
import IdentityEmulator
import Testing

@Suite("Native-auth MFA and just-in-time strong-auth method registration")
struct NativeAuthMFATests {
    static let tenant = "contosocustomers.onmicrosoft.com"
    static let types = ("challenge_type", "oob password redirect")
    static let capabilities = ("capabilities", "mfa_required registration_required")
    static let scope = "api://\(Directory.DemoIDs.api1)/ToDoList.Read openid profile offline_access"

    private func post(_ emulator: TestEmulator, _ path: String, _ form: [(String, String)]) async throws
        -> HTTPResult
    {
        try await emulator.post(
            "/\(Self.tenant)/\(path)", form: [("client_id", Directory.DemoIDs.externalPublicClient)] + form)
    }

    /// `POST /token` as MSAL sends it (scope, `client_info=true`).
    private func token(_ emulator: TestEmulator, _ form: [(String, String)]) async throws -> HTTPResult {
        try await emulator.token(
            Self.tenant,
            [
                ("client_id", Directory.DemoIDs.externalPublicClient), ("scope", Self.scope), ("client_info", "true"),
            ] + form)
    }

    private func outbox(_ emulator: TestEmulator) async throws -> [[String: any Sendable]] {
        let outbox = try await emulator.get("/_emulator/outbox").json
        return try #require(outbox["messages"] as? [[String: any Sendable]])
    }

    /// The newest outbox message.
    private func lastMessage(_ emulator: TestEmulator) async throws -> [String: any Sendable] {
        try #require(try await outbox(emulator).last)
    }

    /// A code other than `code`.
    private func otherCode(than code: String) -> String { code == "00000000" ? "11111111" : "00000000" }

    /// Initiates a sign-in and answers the password challenge: the token endpoint's answer to the first factor.
    private func signInWithPassword(
        _ emulator: TestEmulator, user: String, password: String, extra: [(String, String)] = []
    ) async throws -> HTTPResult {
        let start = try await post(emulator, "oauth2/v2.0/initiate", [("username", user), Self.types] + extra)
        let challenge = try await post(
            emulator, "oauth2/v2.0/challenge",
            [("continuation_token", try #require(try start.string("continuation_token"))), Self.types])
        try #expect(challenge.string("challenge_type") == "password")
        return try await token(
            emulator,
            [
                ("grant_type", "password"),
                ("continuation_token", try #require(try challenge.string("continuation_token"))),
                ("username", user), ("password", password),
            ])
    }

    /// The full token response the SDKs insist on.
    private func expectTokens(_ result: HTTPResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(result.status == 200, "\(result.body)", sourceLocation: sourceLocation)
        let json = try result.json
        #expect(
            json["access_token"] is String && json["id_token"] is String && json["refresh_token"] is String,
            sourceLocation: sourceLocation)
        #expect(
            json["client_info"] is String && json["token_type"] as? String == "Bearer", sourceLocation: sourceLocation)
    }

    @Test(
        "MFA: password, mfa_required (50076), introspect lists two masked methods, an SMS code, a wrong then the right mfa_oob"
    )
    func mfaWithCapability() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let first = try await signInWithPassword(
                emulator, user: ids.mfaUser, password: ids.mfaUserPassword, extra: [Self.capabilities])
            #expect(first.status == 400)
            let error = try first.json
            #expect(error["error"] as? String == "invalid_grant" && error["suberror"] as? String == "mfa_required")
            #expect(error["error_codes"] as? [Int] == [50076])
            #expect(
                (error["error_description"] as? String)?.hasPrefix("AADSTS50076: Due to a configuration change") == true
            )
            #expect(error["trace_id"] is String && error["correlation_id"] is String && error["timestamp"] is String)
            let mfaToken = try #require(error["continuation_token"] as? String)

            let introspect = try await post(emulator, "oauth2/v2.0/introspect", [("continuation_token", mfaToken)])
            #expect(introspect.status == 200, "\(introspect.body)")
            let methods = try #require(try introspect.json["methods"] as? [[String: any Sendable]])
            #expect(methods.map { $0["id"] as? String } == [ids.mfaEmailMethod, ids.mfaSMSMethod])
            #expect(methods.map { $0["challenge_channel"] as? String } == ["email", "sms"])
            #expect(methods.map { $0["login_hint"] as? String } == ["l***@e******.com", "+*******0123"])
            #expect(methods.allSatisfy { $0["challenge_type"] as? String == "oob" })
            let spent = try await post(
                emulator, "oauth2/v2.0/challenge", [("continuation_token", mfaToken), Self.types])
            try #expect(spent.status == 400 && (spent.json["error_codes"] as? [Int]) == [55000])

            let challenge = try await post(
                emulator, "oauth2/v2.0/challenge",
                [
                    ("continuation_token", try #require(try introspect.string("continuation_token"))), Self.types,
                    ("id", ids.mfaSMSMethod),
                ])
            #expect(challenge.status == 200, "\(challenge.body)")
            let sent = try challenge.json
            #expect(sent["challenge_type"] as? String == "oob" && sent["binding_method"] as? String == "prompt")
            #expect(
                sent["challenge_channel"] as? String == "sms"
                    && sent["challenge_target_label"] as? String == "+*******0123")
            #expect(sent["code_length"] as? Int == 8)
            let message = try await lastMessage(emulator)
            #expect(message["to"] as? String == "+15555550123")
            #expect(message["subject"] as? String == "Your verification code")
            let code = try #require(message["code"] as? String)
            let codeToken = try #require(sent["continuation_token"] as? String)

            let wrong = try await token(
                emulator,
                [("grant_type", "mfa_oob"), ("continuation_token", codeToken), ("oob", otherCode(than: code))])
            try #expect(
                wrong.status == 400 && wrong.string("error") == "invalid_grant"
                    && wrong.string("suberror") == "invalid_oob_value")
            let tokens = try await token(
                emulator, [("grant_type", "mfa_oob"), ("continuation_token", codeToken), ("oob", code)])
            try expectTokens(tokens)

            let replay = try await token(
                emulator, [("grant_type", "mfa_oob"), ("continuation_token", codeToken), ("oob", code)])
            try #expect(
                replay.status == 400 && replay.string("error") == "invalid_request"
                    && (replay.json["error_codes"] as? [Int]) == [55000])
        }
    }

    @Test("MFA without the capability: a 200 redirect naming the missing one; customers without MFA are unaffected")
    func missingCapability() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let lee = try await signInWithPassword(emulator, user: ids.mfaUser, password: ids.mfaUserPassword)
            #expect(lee.status == 200)
            try #expect(lee.string("challenge_type") == "redirect")
            try #expect(lee.string("redirect_reason") == "Client is missing mfa_required capability")
            try #expect(lee.string("continuation_token") == nil && lee.string("access_token") == nil)

            let noah = try await signInWithPassword(
                emulator, user: ids.registrationUser, password: ids.registrationUserPassword,
                extra: [("capabilities", "mfa_required")])
            #expect(noah.status == 200)
            try #expect(noah.string("redirect_reason") == "Client is missing registration_required capability")

            let jane = try await signInWithPassword(
                emulator, user: "jane@example.com", password: "Jane-Demo-Pass4", extra: [Self.capabilities])
            try expectTokens(jane)
        }
    }

    @Test(
        "MFA, the Learn spelling: capability with commas, an unknown id refused, the default method, a resend, grant_type=oob"
    )
    func learnSpellingAndDefaultMethod() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let first = try await signInWithPassword(
                emulator, user: ids.mfaUser, password: ids.mfaUserPassword,
                extra: [("capability", "registration_required,mfa_required")])
            try #expect(first.status == 400 && first.string("suberror") == "mfa_required")
            let mfaToken = try #require(try first.string("continuation_token"))

            let unknown = try await post(
                emulator, "oauth2/v2.0/challenge", [("continuation_token", mfaToken), Self.types, ("id", "nope")])
            try #expect(
                unknown.status == 400 && unknown.string("error") == "invalid_request"
                    && (unknown.json["error_codes"] as? [Int]) == [901007])

            let challenge = try await post(
                emulator, "oauth2/v2.0/challenge", [("continuation_token", mfaToken), Self.types])
            #expect(challenge.status == 200, "\(challenge.body)")
            try #expect(
                challenge.string("challenge_channel") == "email"
                    && challenge.string("challenge_target_label") == "l***@e******.com")
            let firstMessage = try await lastMessage(emulator)
            #expect(firstMessage["to"] as? String == "lee.backup@example.com")
            let oldCode = try #require(firstMessage["code"] as? String)

            let resend = try await post(
                emulator, "oauth2/v2.0/challenge",
                [("continuation_token", try #require(try challenge.string("continuation_token"))), Self.types])
            #expect(resend.status == 200, "\(resend.body)")
            let newCode = try #require(try await lastMessage(emulator)["code"] as? String)
            let codeToken = try #require(try resend.string("continuation_token"))
            let stale = try await token(
                emulator,
                [
                    ("grant_type", "oob"), ("continuation_token", codeToken),
                    ("oob", oldCode == newCode ? otherCode(than: newCode) : oldCode),
                ])
            try #expect(stale.status == 400 && stale.string("suberror") == "invalid_oob_value")
            let tokens = try await token(
                emulator, [("grant_type", "oob"), ("continuation_token", codeToken), ("oob", newCode)])
            try expectTokens(tokens)
        }
    }

    @Test(
        "registration: registration_required (50079), an invalid contact (901001), a code to the new address, then tokens; the next sign-in passes MFA on it"
    )
    func registration() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let first = try await signInWithPassword(
                emulator, user: ids.registrationUser, password: ids.registrationUserPassword,
                extra: [Self.capabilities])
            #expect(first.status == 400)
            let error = try first.json
            #expect(
                error["error"] as? String == "invalid_grant"
                    && error["suberror"] as? String == "registration_required")
            #expect(error["error_codes"] as? [Int] == [50079])
            #expect(
                (error["error_description"] as? String)?.hasPrefix("AADSTS50079: Due to a configuration change") == true
            )
            let registrationToken = try #require(error["continuation_token"] as? String)

            let introspect = try await post(
                emulator, "register/v1.0/introspect", [("continuation_token", registrationToken)])
            #expect(introspect.status == 200, "\(introspect.body)")
            let kinds = try #require(try introspect.json["methods"] as? [[String: any Sendable]])
            #expect(kinds.map { $0["id"] as? String } == ["email", "sms"])
            #expect(kinds.map { $0["challenge_channel"] as? String } == ["email", "sms"])
            #expect(kinds.map { $0["login_hint"] as? String } == ["n***@e******.com", ""])
            let next = try #require(try introspect.string("continuation_token"))

            let contact = { (target: String) -> [(String, String)] in
                [
                    ("continuation_token", next), ("challenge_type", "oob"), ("challenge_channel", "email"),
                    ("challenge_target", target),
                ]
            }
            let invalid = try await post(emulator, "register/v1.0/challenge", contact("not-an-email"))
            try #expect(
                invalid.status == 400 && invalid.string("error") == "invalid_request"
                    && (invalid.json["error_codes"] as? [Int]) == [901001])

            let challenge = try await post(emulator, "register/v1.0/challenge", contact("noah.new@example.org"))
            #expect(challenge.status == 200, "\(challenge.body)")
            let sent = try challenge.json
            #expect(sent["challenge_type"] as? String == "oob" && sent["binding_method"] as? String == "prompt")
            #expect(
                sent["challenge_target"] as? String == "noah.new@example.org"
                    && sent["challenge_channel"] as? String == "email")
            #expect(sent["code_length"] as? Int == 8 && sent["interval"] as? Int == 300)
            let message = try await lastMessage(emulator)
            #expect(message["to"] as? String == "noah.new@example.org")
            let code = try #require(message["code"] as? String)
            let codeToken = try #require(sent["continuation_token"] as? String)

            let wrong = try await post(
                emulator, "register/v1.0/continue",
                [("continuation_token", codeToken), ("grant_type", "oob"), ("oob", otherCode(than: code))])
            try #expect(
                wrong.status == 400 && wrong.string("error") == "invalid_grant"
                    && wrong.string("suberror") == "invalid_oob_value")
            let done = try await post(
                emulator, "register/v1.0/continue",
                [("continuation_token", codeToken), ("grant_type", "oob"), ("oob", code)])
            #expect(done.status == 200, "\(done.body)")
            let signInToken = try #require(try done.string("continuation_token"))
            let tokens = try await token(
                emulator,
                [
                    ("grant_type", "continuation_token"), ("continuation_token", signInToken),
                    ("username", ids.registrationUser),
                ])
            try expectTokens(tokens)

            let again = try await signInWithPassword(
                emulator, user: ids.registrationUser, password: ids.registrationUserPassword,
                extra: [Self.capabilities])
            try #expect(again.status == 400 && again.string("suberror") == "mfa_required")
            let methods = try await post(
                emulator, "oauth2/v2.0/introspect",
                [("continuation_token", try #require(try again.string("continuation_token")))])
            let registered = try #require(try methods.json["methods"] as? [[String: any Sendable]])
            #expect(registered.count == 1)
            #expect(
                registered.first?["challenge_channel"] as? String == "email"
                    && registered.first?["login_hint"] as? String == "n***@e******.org")
            #expect(UUID(uuidString: registered.first?["id"] as? String ?? "") != nil)
        }
    }

    @Test("registration: the user's own email is preverified (no code sent); a bad phone is 901001, fax unsupported")
    func preverified() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let first = try await signInWithPassword(
                emulator, user: ids.registrationUser, password: ids.registrationUserPassword,
                extra: [Self.capabilities])
            let registrationToken = try #require(try first.string("continuation_token"))
            let contact = { (channel: String, target: String) -> [(String, String)] in
                [
                    ("continuation_token", registrationToken), ("challenge_type", "oob"),
                    ("challenge_channel", channel), ("challenge_target", target),
                ]
            }
            let badPhone = try await post(emulator, "register/v1.0/challenge", contact("sms", "555-0123"))
            try #expect(badPhone.status == 400 && (badPhone.json["error_codes"] as? [Int]) == [901001])
            let fax = try await post(emulator, "register/v1.0/challenge", contact("fax", "+15555550100"))
            try #expect(fax.status == 400 && fax.string("error") == "unsupported_challenge_type")

            let sentBefore = try await outbox(emulator).count
            let own = try await post(emulator, "register/v1.0/challenge", contact("email", "Noah@Example.com"))
            #expect(own.status == 200, "\(own.body)")
            try #expect(own.string("challenge_type") == "preverified")
            #expect(try await outbox(emulator).count == sentBefore)

            let done = try await post(
                emulator, "register/v1.0/continue",
                [
                    ("continuation_token", try #require(try own.string("continuation_token"))),
                    ("grant_type", "continuation_token"),
                ])
            #expect(done.status == 200, "\(done.body)")
            let tokens = try await token(
                emulator,
                [
                    ("grant_type", "continuation_token"),
                    ("continuation_token", try #require(try done.string("continuation_token"))),
                ])
            try expectTokens(tokens)
        }
    }

    @Test("a password reset carries the capabilities into the sign-in after it, which then asks for MFA")
    func mfaAfterPasswordReset() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let start = try await post(
                emulator, "resetpassword/v1.0/start",
                [("username", ids.mfaUser), ("challenge_type", "oob redirect"), Self.capabilities])
            let challenge = try await post(
                emulator, "resetpassword/v1.0/challenge",
                [("continuation_token", try #require(try start.string("continuation_token")))])
            let code = try #require(try await lastMessage(emulator)["code"] as? String)
            let verified = try await post(
                emulator, "resetpassword/v1.0/continue",
                [
                    ("continuation_token", try #require(try challenge.string("continuation_token"))),
                    ("grant_type", "oob"), ("oob", code),
                ])
            let submitted = try await post(
                emulator, "resetpassword/v1.0/submit",
                [
                    ("continuation_token", try #require(try verified.string("continuation_token"))),
                    ("new_password", "Fresh-Start-2468"),
                ])
            var pollToken = try #require(try submitted.string("continuation_token"))
            var status = "in_progress"
            for _ in 0..<3 where status == "in_progress" {
                let poll = try await post(
                    emulator, "resetpassword/v1.0/poll_completion", [("continuation_token", pollToken)])
                status = try #require(try poll.string("status"))
                pollToken = try #require(try poll.string("continuation_token"))
            }
            #expect(status == "succeeded")
            let signIn = try await token(
                emulator,
                [
                    ("grant_type", "continuation_token"), ("continuation_token", pollToken),
                    ("username", ids.mfaUser),
                ])
            try #expect(signIn.status == 400 && signIn.string("suberror") == "mfa_required")
            try #expect(signIn.string("continuation_token") != nil)
        }
    }

    @Test("MFA and registration continuation tokens: only good at their own endpoints, single-use, and they expire")
    func continuationTokens() async throws {
        try await TestEmulator.with { emulator in
            let ids = emulator.ids
            let lee = try await signInWithPassword(
                emulator, user: ids.mfaUser, password: ids.mfaUserPassword, extra: [Self.capabilities])
            let mfaToken = try #require(try lee.string("continuation_token"))
            let elsewhere = try await post(emulator, "register/v1.0/introspect", [("continuation_token", mfaToken)])
            try #expect(
                elsewhere.status == 400 && elsewhere.string("error") == "invalid_request"
                    && (elsewhere.json["error_codes"] as? [Int]) == [55000])
            let spent = try await post(emulator, "oauth2/v2.0/introspect", [("continuation_token", mfaToken)])
            try #expect(spent.status == 400 && (spent.json["error_codes"] as? [Int]) == [55000])

            let noah = try await signInWithPassword(
                emulator, user: ids.registrationUser, password: ids.registrationUserPassword,
                extra: [Self.capabilities])
            let registrationToken = try #require(try noah.string("continuation_token"))
            let asSignIn = try await token(
                emulator,
                [
                    ("grant_type", "continuation_token"), ("continuation_token", registrationToken),
                    ("username", ids.registrationUser),
                ])
            try #expect(asSignIn.status == 400 && (asSignIn.json["error_codes"] as? [Int]) == [55000])

            let later = try await signInWithPassword(
                emulator, user: ids.mfaUser, password: ids.mfaUserPassword, extra: [Self.capabilities])
            let laterToken = try #require(try later.string("continuation_token"))
            try await emulator.setClockOffset(901)
            let expired = try await post(emulator, "oauth2/v2.0/introspect", [("continuation_token", laterToken)])
            try #expect(expired.status == 400 && expired.string("error") == "expired_token")
        }
    }

    @Test("directory: mfaRequired and strongAuthMethods decode (absent: tenant policy off); bad methods are named")
    func directoryFields() throws {
        let tenant = "11111111-2222-4333-8444-555555555555"
        let methodID = "31111111-2222-4333-8444-555555555555"
        let json = """
            {"tenants":[{"id":"\(tenant)","domain":"a.b","displayName":"A","kind":"external","nativeAuth":{"mfaRequired":true}},
                        {"id":"41111111-2222-4333-8444-555555555555","domain":"c.d","displayName":"C","kind":"external","nativeAuth":{}}],
             "users":[{"id":"21111111-2222-4333-8444-555555555555","tenant":"\(tenant)","userPrincipalName":"a@a.b",
                       "displayName":"A","mfaRequired":false,
                       "strongAuthMethods":[{"id":"\(methodID)","channel":"sms","target":"+15555550100"}]},
                      {"id":"51111111-2222-4333-8444-555555555555","tenant":"\(tenant)","userPrincipalName":"b@a.b","displayName":"B"}],
             "applications":[]}
            """
        let directory = try Directory.decode(Data(json.utf8))
        #expect(directory.tenants.map { $0.nativeAuth?.mfaRequired } == [true, false])
        #expect(directory.users.map(\.mfaRequired) == [false, nil])
        #expect(
            directory.users[0].strongAuthMethods == [
                StrongAuthMethod(id: methodID, channel: "sms", target: "+15555550100")
            ])
        #expect(directory.users[1].strongAuthMethods == nil)
        try Directory.demo.validate()

        let lee = try #require(Directory.demo.users.firstIndex { $0.userPrincipalName == Directory.DemoIDs.mfaUser })
        let cases: [([StrongAuthMethod], String)] = [
            ([StrongAuthMethod(id: "not-a-guid", channel: "email", target: "a@b.c")], "strongAuthMethods[0].id"),
            ([StrongAuthMethod(id: methodID, channel: "fax", target: "+15555550100")], "strongAuthMethods[0].channel"),
            ([StrongAuthMethod(id: methodID, channel: "email", target: "nobody")], "strongAuthMethods[0].target"),
            ([StrongAuthMethod(id: methodID, channel: "sms", target: "555-0100")], "strongAuthMethods[0].target"),
            (
                [
                    StrongAuthMethod(id: methodID, channel: "sms", target: "+15555550100"),
                    StrongAuthMethod(id: methodID.uppercased(), channel: "email", target: "a@b.c"),
                ], "strongAuthMethods[1].id"
            ),
        ]
        for (methods, field) in cases {
            var bad = Directory.demo
            bad.users[lee].strongAuthMethods = methods
            let frozen = bad
            let error = #expect(throws: DirectoryConfigurationError.self) { try frozen.validate() }
            #expect(error?.field == "users[\(lee)].\(field)")
        }
    }
}
