import Foundation
import IdentityEmulator
import Testing

/// Microsoft's own Python SDKs (pinned in `Tests/Interop/requirements.txt`, installed by `scripts/test`) signing in
/// to the emulator over TLS: azure-identity's credentials, msgraph-sdk's `me.get()`, MSAL Python's interactive
/// flow and its confidential clients (secret, certificate, on-behalf-of; workload identity through azure-identity).
/// Each scenario asks twice; the second answer must come from the SDK's cache, with no request to the token
/// endpoint.
@Suite("Microsoft's SDKs against the emulator over TLS", .timeLimit(.minutes(5)))
struct MicrosoftSDKTests {
    static let megan = CLICommandTests.megan
    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"
    static let onBehalfOfGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// The application permission the demo daemon holds on Graph: the roles of its app-only Graph tokens.
    static let daemonGraphRoles = ["User.Read.All"]

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

    @Test("MSAL Python: acquire_token_for_client with the daemon's secret, then the same app token from MSAL's cache")
    func msalPythonConfidentialSecret() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            let report = try await SDKScenario.run(
                "msal-confidential-secret", emulator: emulator, ca: ca,
                clientID: Directory.DemoIDs.confidentialClient)
            report.expectTokenRequests("first acquire_token_for_client", ["client_credentials"])
            report.expectFromCache("second acquire_token_for_client")
            report.expectTokenSources()
            report.expectAppToken(roles: Self.daemonGraphRoles, authenticatedWith: "1")
            #expect(
                try await CLICommandTests.grants(emulator) == ["client_credentials"],
                "\(report.sdk): the emulator's request log")
        }
    }

    @Test("MSAL Python: acquire_token_for_client with the daemon's certificate (PS256, x5t#S256), then from the cache")
    func msalPythonConfidentialCertificate() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            try await Self.withDaemonCertificate { pem in
                let report = try await SDKScenario.run(
                    "msal-confidential-certificate", emulator: emulator, ca: ca,
                    clientID: Directory.DemoIDs.confidentialClient, environment: ["EMULATOR_CLIENT_CERTIFICATE": pem])
                report.expectTokenRequests("first acquire_token_for_client", ["client_credentials"])
                report.expectFromCache("second acquire_token_for_client")
                report.expectTokenSources()
                report.expectAppToken(roles: Self.daemonGraphRoles, authenticatedWith: "2")
                let endpoint = emulator.authority(CacheInteropTests.contoso).absoluteString + "/oauth2/v2.0/token"
                report.expectClientAssertions(
                    ["first acquire_token_for_client"], algorithm: "PS256", thumbprint: "x5t#S256",
                    issuer: Directory.DemoIDs.confidentialClient, audience: endpoint)
                #expect(
                    try await CLICommandTests.grants(emulator) == ["client_credentials"],
                    "\(report.sdk): the emulator's request log")
            }
        }
    }

    @Test("MSAL Python: API 1 trades Jane's token for a Graph token on her behalf, finds it in the cache, reads /me")
    func msalPythonOnBehalfOf() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            let jane = try Self.jane(emulator)
            let report = try await SDKScenario.runOnBehalfOf("msal-obo", emulator: emulator, ca: ca, user: jane)
            report.expectTokenRequests("the user's token for the API", ["password"])
            report.expectTokenRequests("acquire_token_on_behalf_of", [Self.onBehalfOfGrant])
            report.expectFromCache("acquire_token_silent")
            report.expectTokenSources()
            #expect(
                report.value("accounts") as? [String] == [jane.userPrincipalName],
                "\(report.sdk), get_accounts: \(report)")
            report.expectOnBehalfOf(jane)
            #expect(
                try await CLICommandTests.grants(emulator) == ["password", Self.onBehalfOfGrant],
                "\(report.sdk): the emulator's request log")
        }
    }

    @Test("azure-identity CertificateCredential: an app-only token with the daemon's certificate, then from the cache")
    func certificateCredential() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            try await Self.withDaemonCertificate { pem in
                let report = try await SDKScenario.run(
                    "azure-identity-client-certificate", emulator: emulator, ca: ca,
                    clientID: Directory.DemoIDs.confidentialClient, environment: ["EMULATOR_CLIENT_CERTIFICATE": pem])
                report.expectTokenRequests("first get_token", ["client_credentials"])
                report.expectFromCache("second get_token")
                report.expectAppToken(roles: Self.daemonGraphRoles, authenticatedWith: "2")
                // azure-identity 1.27 hands MSAL the certificate's SHA-1 thumbprint: RS256 with x5t.
                let endpoint = emulator.authority(CacheInteropTests.contoso).absoluteString + "/oauth2/v2.0/token"
                report.expectClientAssertions(
                    ["first get_token"], algorithm: "RS256", thumbprint: "x5t",
                    issuer: Directory.DemoIDs.confidentialClient, audience: endpoint)
                #expect(
                    try await CLICommandTests.grants(emulator) == ["client_credentials"],
                    "\(report.sdk): the emulator's request log")
            }
        }
    }

    @Test("azure-identity OnBehalfOfCredential: API 1 gets a Graph token for Jane, then the same one from the cache")
    func onBehalfOfCredential() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            let jane = try Self.jane(emulator)
            let report = try await SDKScenario.runOnBehalfOf(
                "azure-identity-on-behalf-of", emulator: emulator, ca: ca, user: jane)
            report.expectTokenRequests("the user's token for the API", ["password"])
            report.expectTokenRequests("first get_token", [Self.onBehalfOfGrant])
            report.expectFromCache("second get_token")
            report.expectOnBehalfOf(jane)
            #expect(
                try await CLICommandTests.grants(emulator) == ["password", Self.onBehalfOfGrant],
                "\(report.sdk): the emulator's request log")
        }
    }

    @Test("azure-identity WorkloadIdentityCredential: a federated token file, the cache, then the rotated file")
    func workloadIdentityCredential() async throws {
        try await CacheInteropTests.withTLS { emulator, _, ca in
            let report = try await SDKScenario.run(
                "azure-identity-workload-identity", emulator: emulator, ca: ca,
                clientID: Directory.DemoIDs.confidentialClient, extra: [Directory.DemoIDs.daemonWorkloadSubject])
            report.expectTokenRequests("first get_token", ["client_credentials"])
            report.expectFromCache("second get_token")
            report.expectTokenRequests("get_token after the rotation", ["client_credentials"])
            report.expectAppToken(roles: Self.daemonGraphRoles, authenticatedWith: "2")
            report.expectClientAssertions(
                ["first get_token", "get_token after the rotation"], algorithm: "RS256", thumbprint: "kid",
                issuer: SDKScenario.origin(of: emulator) + "/_emulator/workload", audience: "api://AzureADTokenExchange"
            )
            // Ten minutes on, azure-identity read the file again: the emulator (where the first token had expired)
            // got the token the cluster wrote last.
            #expect(
                report.value("assertion_sources") as? [String: String] == [
                    "first get_token": "first minted token", "get_token after the rotation": "second minted token",
                ], "\(report.sdk): which token file content each request sent: \(report)")
            let rotated = report.summary("after_rotation")
            #expect(
                rotated["idtyp"] as? String == "app" && report.value("after_rotation_is_first") as? Bool == false,
                "\(report.sdk), get_token after the rotation: a new app token expected, got \(rotated)")
            #expect(
                try await CLICommandTests.grants(emulator) == ["client_credentials", "client_credentials"],
                "\(report.sdk): the emulator's request log")
        }
    }

    /// Jane, the External ID tenant's user with a password, who signs in before API 1 calls Graph on her behalf.
    static func jane(_ emulator: RunningEmulator) throws -> User {
        try #require(
            emulator.directory.users.first { $0.userPrincipalName == "jane@example.com" && $0.password != nil })
    }

    /// The demo daemon's private key and certificate in one PEM file, as CertificateCredential reads it.
    static func withDaemonCertificate(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pem = folder.appendingPathComponent("daemon.pem")
        try (Directory.DemoIDs.daemonPrivateKeyPEM + "\n" + Directory.DemoIDs.daemonCertificatePEM + "\n").write(
            to: pem, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: pem.path)
        try await body(pem.path)
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

    /// Runs a scenario as Megan, in Contoso, unless `tenant` and `environment` say otherwise. The password, the
    /// client secret, the certificate's path and the browser's CA reach Python and `emulator-browser` through the
    /// environment, never the command line; `extra` are the scenario's further ids.
    ///
    /// - Throws: naming the SDK and the step when the scenario failed.
    static func run(
        _ scenario: String, emulator: RunningEmulator, ca: String,
        tenant: String = CacheInteropTests.contoso, clientID: String = Directory.DemoIDs.publicClient,
        extra: [String] = [], environment: [String: String] = [:]
    ) async throws -> SDKScenario {
        let arguments = [script, scenario, origin(of: emulator), tenant, clientID, ca] + extra
        let defaults = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": NSTemporaryDirectory(),
            "EMULATOR_USERNAME": MicrosoftSDKTests.megan.0, "EMULATOR_PASSWORD": MicrosoftSDKTests.megan.1,
            "EMULATOR_CLIENT_SECRET": Directory.DemoIDs.confidentialSecret,
            "BROWSER": Binaries.url("emulator-browser").path, "MSAL_CA_BUNDLE": ca,
        ]
        let result = try await CLIProcess.run(
            try MSALPython.interpreter(), arguments, environment: defaults.merging(environment) { $1 })
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

    /// Runs an on-behalf-of scenario in the External ID tenant: `user` signs in to its public client for API 1,
    /// and API 1 (with its secret) trades that token for a Graph token.
    static func runOnBehalfOf(_ scenario: String, emulator: RunningEmulator, ca: String, user: User) async throws
        -> SDKScenario
    {
        try await run(
            scenario, emulator: emulator, ca: ca, tenant: Directory.DemoIDs.externalTenant,
            clientID: Directory.DemoIDs.api1, extra: [Directory.DemoIDs.externalPublicClient],
            environment: [
                "EMULATOR_USERNAME": user.userPrincipalName, "EMULATOR_PASSWORD": user.password ?? "",
                "EMULATOR_CLIENT_SECRET": Directory.DemoIDs.api1Secret,
            ])
    }

    /// The emulator's origin, without a trailing slash: `https://127.0.0.1:PORT`.
    static func origin(of emulator: RunningEmulator) -> String {
        emulator.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
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

    /// MSAL Python's `token_source`: the first answer from the token endpoint, the second from its cache.
    func expectTokenSources(sourceLocation: SourceLocation = #_sourceLocation) {
        for (step, source) in [("first", "identity_provider"), ("second", "cache")] {
            let result = summary(step)
            #expect(
                result["token_source"] as? String == source, "\(sdk), \(step) token: token_source in \(result)",
                sourceLocation: sourceLocation)
        }
    }

    /// Both tokens are the demo daemon's app-only Graph tokens in Contoso: `idtyp` app, its roles, no `scp`, and
    /// `appidacr` 1 for a secret, 2 for a certificate or a federated credential.
    func expectAppToken(roles: [String], authenticatedWith: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for step in ["first", "second"] {
            let claims = summary(step)
            let expected: [String: String] = [
                "idtyp": "app", "tid": CacheInteropTests.contoso, "appid": Directory.DemoIDs.confidentialClient,
                "appidacr": authenticatedWith,
            ]
            for (claim, value) in expected.sorted(by: { $0.key < $1.key }) {
                #expect(
                    claims[claim] as? String == value, "\(sdk), \(step) token: \(claim) in \(claims)",
                    sourceLocation: sourceLocation)
            }
            #expect(
                claims["roles"] as? [String] == roles, "\(sdk), \(step) token: roles in \(claims)",
                sourceLocation: sourceLocation)
            #expect(
                claims["scp"] == nil || claims["scp"] is NSNull, "\(sdk), \(step) token: an app-only token has no scp",
                sourceLocation: sourceLocation)
        }
    }

    /// The client assertions sent, one per step named, all with `algorithm`, the `thumbprint` header naming the key
    /// (`x5t#S256`, `x5t`, or `kid` for a federated token), `issuer` and `audience`.
    func expectClientAssertions(
        _ steps: [String], algorithm: String, thumbprint: String, issuer: String, audience: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let sent = report["client_assertions"] as? [[String: Any]] ?? []
        #expect(
            sent.map { $0["step"] as? String ?? "?" } == steps, "\(sdk): client assertions \(sent)",
            sourceLocation: sourceLocation)
        for assertion in sent {
            let audiences = (assertion["aud"] as? [String]) ?? [(assertion["aud"] as? String) ?? ""]
            #expect(
                assertion["alg"] as? String == algorithm
                    && (assertion["header"] as? [String] ?? []).contains(thumbprint)
                    && assertion["iss"] as? String == issuer && audiences == [audience],
                "\(sdk): expected a \(algorithm) assertion with \(thumbprint) from \(issuer) for \(audience), sent \(assertion)",
                sourceLocation: sourceLocation)
        }
    }

    /// API 1 got `user`'s token for itself from the public client, traded it for `user`'s Graph token in the External
    /// ID tenant (both steps' tokens), and read `user` at GET /v1.0/me with it.
    func expectOnBehalfOf(_ user: User, sourceLocation: SourceLocation = #_sourceLocation) {
        let incoming = summary("incoming")
        #expect(
            incoming["aud"] as? String == Directory.DemoIDs.api1
                && incoming["azp"] as? String == Directory.DemoIDs.externalPublicClient
                && incoming["oid"] as? String == user.id,
            "\(sdk): the user's token for API 1: \(incoming)", sourceLocation: sourceLocation)
        for step in ["first", "second"] {
            let claims = summary(step)
            let expected: [String: String] = [
                "idtyp": "user", "upn": user.userPrincipalName, "oid": user.id, "tid": Directory.DemoIDs.externalTenant,
                "appid": Directory.DemoIDs.api1,
            ]
            for (claim, value) in expected.sorted(by: { $0.key < $1.key }) {
                #expect(
                    claims[claim] as? String == value, "\(sdk), \(step) token: \(claim) in \(claims)",
                    sourceLocation: sourceLocation)
            }
            #expect(
                (claims["scp"] as? String)?.split(separator: " ").contains("User.Read") == true,
                "\(sdk), \(step) token: scp in \(claims)", sourceLocation: sourceLocation)
        }
        let me = summary("me")
        #expect(
            me["status"] as? Int == 200 && me["id"] as? String == user.id
                && me["userPrincipalName"] as? String == user.userPrincipalName,
            "\(sdk): GET /v1.0/me with the on-behalf-of token: \(me)", sourceLocation: sourceLocation)
    }

    func expectBrowserSucceeded(sourceLocation: SourceLocation = #_sourceLocation) {
        let runs = report["browser"] as? [[String: Any]] ?? []
        #expect(
            runs.count == 1 && runs.allSatisfy { $0["status"] as? Int == 0 },
            "\(sdk), the browser ($BROWSER=emulator-browser): \(runs)", sourceLocation: sourceLocation)
    }
}
