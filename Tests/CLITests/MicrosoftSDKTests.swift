import Foundation
import IdentityEmulator
import Testing

/// Microsoft's own Python SDKs (pinned in `Tests/Interop/requirements.txt`, installed by `scripts/test`) signing in
/// to the emulator over TLS: azure-identity's credentials, msgraph-sdk's `me.get()` and MSAL Python's interactive
/// flow. Each scenario asks twice; the second answer must come from the SDK's cache, with no request to the token
/// endpoint.
@Suite("Microsoft's SDKs against the emulator over TLS", .timeLimit(.minutes(5)))
struct MicrosoftSDKTests {
    static let megan = CLICommandTests.megan
    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"

    @Test("azure-identity DeviceCodeCredential: a device code sign-in, then the same token from the cache")
    func deviceCodeCredential() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            let report = try await SDKScenario.run("azure-identity-device-code", emulator: emulator, ca: ca)
            #expect(
                report.value("device_sign_in") as? Bool == true,
                "\(report.sdk), the user signing in at /devicelogin: \(report)")
            report.expectTokenRequests("first get_token", [Self.deviceCodeGrant])
            report.expectFromCache("second get_token")
            report.expectDelegated(Self.megan.0)
            #expect(
                try await CLICommandTests.grants(emulator) == [Self.deviceCodeGrant],
                "\(report.sdk): the emulator's request log")
        }
    }

    @Test("azure-identity InteractiveBrowserCredential: a sign-in through $BROWSER, then the same token from the cache")
    func interactiveBrowserCredential() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            let report = try await SDKScenario.run("azure-identity-interactive", emulator: emulator, ca: ca)
            report.expectBrowserSucceeded()
            report.expectTokenRequests("first get_token", ["authorization_code"])
            report.expectFromCache("second get_token")
            report.expectDelegated(Self.megan.0)
            #expect(
                try await CLICommandTests.grants(emulator) == ["authorization_code"],
                "\(report.sdk): the emulator's request log")
        }
    }

    @Test("azure-identity ClientSecretCredential: an app-only token for Graph, then the same token from the cache")
    func clientSecretCredential() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            let report = try await SDKScenario.run(
                "azure-identity-client-secret", emulator: emulator, ca: ca,
                clientID: Directory.DemoIDs.confidentialClient)
            report.expectTokenRequests("first get_token", ["client_credentials"])
            report.expectFromCache("second get_token")
            let first = report.summary("first")
            #expect(first["idtyp"] as? String == "app", "\(report.sdk), first get_token: \(first)")
            #expect(
                (first["roles"] as? [String] ?? []).isEmpty == false,
                "\(report.sdk), first get_token: no roles in \(first)")
            #expect(
                first["scp"] == nil || first["scp"] is NSNull,
                "\(report.sdk), first get_token: an app-only token has no scp: \(first)")
            #expect(first["tid"] as? String == CacheInteropTests.contoso, "\(report.sdk), first get_token: \(first)")
            #expect(
                try await CLICommandTests.grants(emulator) == ["client_credentials"],
                "\(report.sdk): the emulator's request log")
        }
    }

    @Test("msgraph-sdk: me.get() parsed into its User model, then again with the token from the cache")
    func graphServiceClientMe() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            let report = try await SDKScenario.run("msgraph-me", emulator: emulator, ca: ca)
            report.expectTokenRequests("first me.get()", [Self.deviceCodeGrant])
            report.expectFromCache("second me.get()")
            let statuses = (report.value("graph_requests") as? [[String: Any]] ?? []).map { $0["status"] as? Int ?? 0 }
            #expect(statuses == [200, 200], "\(report.sdk): GET /v1.0/me answered \(statuses)")
            let megan = try #require(emulator.directory.users.first { $0.userPrincipalName == Self.megan.0 })
            for step in ["first", "second"] {
                let user = report.summary(step)
                let expected: [String: String?] = [
                    "type": "msgraph.generated.models.user.User", "id": megan.id, "display_name": megan.displayName,
                    "user_principal_name": megan.userPrincipalName, "mail": megan.mail, "given_name": megan.givenName,
                    "surname": megan.surname, "job_title": megan.jobTitle,
                ]
                for (field, value) in expected.sorted(by: { $0.key < $1.key }) {
                    #expect(
                        user[field] as? String == value,
                        "\(report.sdk), \(step) me.get(): User.\(field) is \(user[field] ?? "missing")")
                }
            }
            #expect(
                try await CLICommandTests.grants(emulator) == [Self.deviceCodeGrant],
                "\(report.sdk): the emulator's request log")
        }
    }

    @Test("MSAL Python: acquire_token_interactive through $BROWSER, then acquire_token_silent from the cache")
    func msalPythonInteractive() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            let report = try await SDKScenario.run("msal-interactive", emulator: emulator, ca: ca)
            report.expectBrowserSucceeded()
            report.expectTokenRequests("acquire_token_interactive", ["authorization_code"])
            report.expectFromCache("acquire_token_silent")
            let first = report.summary("first")
            #expect(
                first["token_source"] as? String == "identity_provider",
                "\(report.sdk), acquire_token_interactive: \(first)")
            #expect(
                first["preferred_username"] as? String == Self.megan.0,
                "\(report.sdk), acquire_token_interactive: \(first)")
            #expect(report.value("accounts") as? [String] == [Self.megan.0], "\(report.sdk), get_accounts: \(report)")
            let second = report.summary("second")
            #expect(second["token_source"] as? String == "cache", "\(report.sdk), acquire_token_silent: \(second)")
            #expect(
                try await CLICommandTests.grants(emulator) == ["authorization_code"],
                "\(report.sdk): the emulator's request log")
        }
    }
}

/// One run of `Tests/Interop/microsoft_sdks_against_emulator.py` and the JSON object it printed: the SDK, and per
/// step the grant types of the token endpoint requests that step made.
struct SDKScenario: CustomStringConvertible {
    static let script = MSALPython.repository.appendingPathComponent("Tests/Interop/microsoft_sdks_against_emulator.py")
        .path

    private let report: [String: Any]
    var sdk: String { report["sdk"] as? String ?? "?" }
    var description: String {
        String(
            decoding: (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])) ?? Data(),
            as: UTF8.self)
    }

    /// Runs a scenario as Megan, in Contoso. The password, the client secret and the browser's CA reach Python and
    /// `emulator-browser` through the environment, never the command line.
    ///
    /// - Throws: naming the SDK and the step when the scenario failed.
    static func run(
        _ scenario: String, emulator: RunningEmulator, ca: String,
        clientID: String = Directory.DemoIDs.publicClient
    ) async throws -> SDKScenario {
        let origin = emulator.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let arguments = [script, scenario, origin, CacheInteropTests.contoso, clientID, ca]
        let result = try await CLIProcess.run(
            try MSALPython.interpreter(), arguments,
            environment: [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": NSTemporaryDirectory(),
                "EMULATOR_USERNAME": MicrosoftSDKTests.megan.0, "EMULATOR_PASSWORD": MicrosoftSDKTests.megan.1,
                "EMULATOR_CLIENT_SECRET": Directory.DemoIDs.confidentialSecret,
                "BROWSER": Binaries.url("emulator-browser").path, "MSAL_CA_BUNDLE": ca,
            ])
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            throw CLITestFailure(
                "\(scenario) exited \(result.status) without a report (scripts/test installs the SDKs):\n\(result.stdout)\n\(result.stderr)"
            )
        }
        if let error = report["error"] as? String {
            throw CLITestFailure(
                "\(report["sdk"] as? String ?? scenario), \(report["step"] as? String ?? "?"): \(error)")
        }
        guard result.status == 0 else {
            throw CLITestFailure("\(scenario) exited \(result.status):\n\(result.stdout)\n\(result.stderr)")
        }
        return SDKScenario(report: report)
    }

    func value(_ key: String) -> Any? { report[key] }

    /// A step's summary: the access token's claims, the parsed Graph user, or MSAL's result.
    func summary(_ key: String) -> [String: Any] { report[key] as? [String: Any] ?? [:] }

    func expectTokenRequests(_ step: String, _ grants: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let made = (report["token_requests"] as? [String: Any])?[step] as? [String]
        #expect(
            made == grants,
            "\(sdk), \(step): token endpoint requests \(made.map { "\($0)" } ?? "not measured"), expected \(grants)",
            sourceLocation: sourceLocation)
    }

    /// The step made no request to the token endpoint, and (where the SDK hands out the token) got the first token again.
    func expectFromCache(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let made = (report["token_requests"] as? [String: Any])?[step] as? [String]
        #expect(
            made == [],
            "\(sdk), \(step): not served from the cache; token endpoint requests \(made.map { "\($0)" } ?? "not measured")",
            sourceLocation: sourceLocation)
        if let same = report["second_is_first"] as? Bool {
            #expect(
                same, "\(sdk), \(step): a different access token than the first step's", sourceLocation: sourceLocation)
        }
    }

    /// Both tokens are Megan's delegated Graph tokens in Contoso.
    func expectDelegated(_ username: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for step in ["first", "second"] {
            let claims = summary(step)
            #expect(
                claims["upn"] as? String == username, "\(sdk), \(step) get_token: upn in \(claims)",
                sourceLocation: sourceLocation)
            #expect(
                claims["idtyp"] as? String == "user", "\(sdk), \(step) get_token: idtyp in \(claims)",
                sourceLocation: sourceLocation)
            #expect(
                claims["tid"] as? String == CacheInteropTests.contoso, "\(sdk), \(step) get_token: tid in \(claims)",
                sourceLocation: sourceLocation)
            #expect(
                (claims["scp"] as? String)?.split(separator: " ").contains("User.Read") == true,
                "\(sdk), \(step) get_token: scp in \(claims)", sourceLocation: sourceLocation)
        }
    }

    func expectBrowserSucceeded(sourceLocation: SourceLocation = #_sourceLocation) {
        let runs = report["browser"] as? [[String: Any]] ?? []
        #expect(
            runs.count == 1 && runs.allSatisfy { $0["status"] as? Int == 0 },
            "\(sdk), the browser ($BROWSER=emulator-browser): \(runs)", sourceLocation: sourceLocation)
    }
}
