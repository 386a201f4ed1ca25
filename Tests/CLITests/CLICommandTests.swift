import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import NIOSSL
import Testing
import TodoAPI

/// The built `msal` binary against an in-process emulator, one command after another, as a user would.
@Suite("msal commands against the emulator", .timeLimit(.minutes(5)))
struct CLICommandTests {
    static let megan = ("MeganB@contoso.onmicrosoft.com", "Megan-Demo-Pass1")
    static let api1 = "api://\(Directory.DemoIDs.api1)/ToDoList.Read"
    static let api2 = "api://\(Directory.DemoIDs.api2)/ToDoList.Read"

    @Test("login through $BROWSER, then accounts, me, token, device-info, call and logout")
    func wholeSession() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let browser = ["BROWSER": CLISandbox.browser(Self.megan.0, Self.megan.1)]

            let login = try await sandbox.msal(["login"], browser)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(
                login.stdout
                    == "Signed in as Megan Bowen <MeganB@contoso.onmicrosoft.com> in tenant \(Directory.DemoIDs.contosoTenant).\n"
            )
            #expect(!login.stderr.contains("\u{1B}["), "a status line was drawn on a pipe")
            let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.cachePath)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)

            let accounts = try await sandbox.msal(["accounts"])
            #expect(accounts.status == 0)
            try Golden.check(accounts.stdout, "accounts")

            let me = try await sandbox.msal(["me"])
            #expect(me.status == 0, "\(me.stderr)")
            try Golden.check(me.stdout, "me")
            let meJSON = try await sandbox.msal(["me", "--json"])
            let profile = try JSONSerialization.jsonObject(with: Data(meJSON.stdout.utf8)) as? [String: Any]
            #expect(profile?["userPrincipalName"] as? String == Self.megan.0)

            let token = try await sandbox.msal(["token"])
            #expect(token.status == 0)
            #expect(token.stdout.split(separator: ".").count == 3 && token.stdout.hasSuffix("\n"))
            // Discovery persists beside the token cache: the next process asks the network nothing.
            let discovered = try await Self.served(emulator, path: "/v2.0/.well-known/openid-configuration").count
            let cached = try await Self.json(sandbox.msal(["token", "--json"]))
            #expect(cached["source"] as? String == "cache")
            #expect(try await Self.served(emulator, path: "/v2.0/.well-known/openid-configuration").count == discovered)
            #expect(cached["account"] as? String == Self.megan.0)
            #expect(
                Set(cached.keys) == ["token", "token_type", "expires_on", "scopes", "account", "tenant_id", "source"])
            let refreshed = try await Self.json(sandbox.msal(["token", "--json", "--force-refresh"]))
            #expect(refreshed["source"] as? String == "identity_provider")
            #expect(try await Self.grants(emulator).filter { $0 == "refresh_token" }.count == 1)

            let device = try await Self.json(sandbox.msal(["device-info", "--json"]))
            #expect(device["device_mode"] as? String == "private")
            #expect(device["sso_extension"] as? Bool == false)

            let loginAPI1 = try await sandbox.msal(["login", "--scopes", Self.api1], browser)
            #expect(loginAPI1.status == 0, "\(loginAPI1.stderr)")
            let api1 = try await sandbox.msal([
                "call", emulator.baseURL.appendingPathComponent("api1/todolist").absoluteString, "--scopes", Self.api1,
            ])
            #expect(api1.status == 0, "\(api1.stderr)")
            #expect(api1.stdout.contains("\"todos\""))
            // The same call to todo-api, the tutorials' API 1 as a service of its own that checks the token.
            let todoAPI = try TodoAPIConfiguration(
                authority: Authority(emulator.authority("organizations").absoluteString),
                allowedTenants: [Directory.DemoIDs.contosoTenant],
                apis: [.init(name: "api1", clientID: Directory.DemoIDs.api1)], api1Credential: nil,
                api1Tenant: Directory.DemoIDs.externalTenant, graphBaseURL: emulator.baseURL)
            try await TodoAPIServer.withRunning(todoAPI) { service in
                let viaService = try await sandbox.msal([
                    "call", service.appendingPathComponent("api1/todolist").absoluteString, "--scopes", Self.api1,
                ])
                #expect(viaService.status == 0, "\(viaService.stderr)")
                #expect(viaService.stdout.contains("\"todos\""))
            }
            let silentAPI2 = try await sandbox.msal([
                "call", emulator.baseURL.appendingPathComponent("api2/todolist").absoluteString, "--scopes", Self.api2,
            ])
            #expect(silentAPI2.status == 3, "API 2 needs consent first: \(silentAPI2.stderr)")
            #expect(silentAPI2.stderr.contains("AADSTS65001") && silentAPI2.stderr.contains("again with --interactive"))
            let api2 = try await sandbox.msal(
                [
                    "call", emulator.baseURL.appendingPathComponent("api2/todolist").absoluteString,
                    "--scopes", Self.api2, "--interactive",
                ], browser)
            #expect(api2.status == 0, "\(api2.stderr)")
            #expect(api2.stdout.contains("\"todos\""))

            let logout = try await sandbox.msal(["logout"])
            #expect(logout.stdout == "Signed out MeganB@contoso.onmicrosoft.com.\n")
            let empty = try await sandbox.msal(["accounts"])
            #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.contains("Nobody is signed in"))
            let meAgain = try await sandbox.msal(["me", "--no-interactive"])
            #expect(meAgain.status == 3)
            #expect(meAgain.stderr == "msal: Nobody is signed in; run `msal login`.\n")
        }
    }

    @Test("login --device-code prints the code, waits, and signs in once the code is entered elsewhere")
    func deviceCode() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let running = try sandbox.start(["login", "--device-code"])
            let code = try await running.waitForOutput { Self.match(#"enter the code (\S+)"#, in: $0) }
            try await Self.withHTTP { http in
                try await DeviceLogin(base: emulator.baseURL, http: http).signIn(
                    code: code, username: "AdeleV@contoso.onmicrosoft.com",
                    password: "Adele-Demo-Pass2")
            }
            let result = try await running.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Signed in as Adele Vance <AdeleV@contoso.onmicrosoft.com>"))
            #expect(!result.stderr.contains("\u{1B}["), "a status line was drawn on a pipe")
        }
    }

    @Test("login --no-browser prints the URL; Ctrl-C cancels with exit 130; the printed URL signs in")
    func noBrowserAndInterrupt() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let abandoned = try sandbox.start(["login", "--no-browser"])
            _ = try await abandoned.waitForOutput { Self.match(#"(http://\S+/oauth2/v2.0/authorize\S+)"#, in: $0) }
            abandoned.interrupt()
            let cancelled = try await abandoned.finish()
            #expect(cancelled.status == 130, "\(cancelled.stderr)")
            #expect(cancelled.stderr.contains("msal: Cancelled."))

            let running = try sandbox.start(["login", "--no-browser", "--login-hint", Self.megan.0])
            let url = try await running.waitForOutput { Self.match(#"(http://\S+/oauth2/v2.0/authorize\S+)"#, in: $0) }
            #expect(url.contains("login_hint=MeganB"))
            try await Self.withHTTP { http in
                try await AutomatedUser(http: http, choices: [.signIn(username: Self.megan.0, password: Self.megan.1)])
                    .open(URL(string: url)!)
            }
            let result = try await running.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Signed in as Megan Bowen"))
        }
    }

    @Test(
        "kube get-token, run on the main thread alone, waits for a device-code sign-in; Ctrl-C cancels it with exit 130"
    )
    func hotCommandInterrupt() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let waiting = try sandbox.start(
                ["kube", "get-token", "--server-id", KubectlTests.ids.aksServer],
                [
                    "KUBERNETES_EXEC_INFO":
                        #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":true}}"#
                ])
            _ = try await waiting.waitForOutput { Self.match(#"enter the code (\S+)"#, in: $0) }
            waiting.interrupt()
            let cancelled = try await waiting.finish()
            #expect(cancelled.status == 130, "\(cancelled.stderr)")
            #expect(cancelled.stderr.contains("msal: Cancelled."), "\(cancelled.stderr)")
            #expect(cancelled.stdout.isEmpty)
        }
    }

    @Test("on a terminal, login shows what it waits for on a status line, and erases it")
    func statusLineOnATerminal() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            // `script` gives the command a pseudo-terminal and copies what it prints to standard output.
            let running = try CLIProcess(
                URL(fileURLWithPath: "/usr/bin/script"),
                ["-qefc", "\(Binaries.url("msal").path) login --device-code", "/dev/null"],
                environment: sandbox.environment(), streamingStdout: true)
            let code = try await running.waitForOutput { text -> String? in
                guard text.contains("Waiting for you to enter the code") else { return nil }
                return Self.match(#"enter the code (\S+) to"#, in: text)
            }
            try await Self.withHTTP { http in
                try await DeviceLogin(base: emulator.baseURL, http: http).signIn(
                    code: code, username: Self.megan.0, password: Self.megan.1)
            }
            let result = try await running.finish()
            #expect(result.status == 0, "\(result.stdout)")
            #expect(result.stdout.contains("\r\u{1B}[2K"), "the status line is redrawn and erased")
            #expect(result.stdout.contains("Signed in as Megan Bowen"))
        }
    }

    @Test("--verbose logs the flow without tokens, passwords or usernames; --log-pii adds usernames")
    func verboseKeepsSecrets() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let login = try await sandbox.msal(
                ["login", "--verbose"], ["BROWSER": CLISandbox.browser(Self.megan.0, Self.megan.1)])
            #expect(login.status == 0)
            let refresh = try await sandbox.msal(["token", "--force-refresh", "--verbose"])
            #expect(refresh.status == 0)
            let log = login.stderr + refresh.stderr
            #expect(log.contains("interactive sign-in finished") && log.contains("redeeming a refresh token"), "\(log)")
            #expect(log.contains("msal: authority: \(sandbox.authority) (environment)"))
            #expect(log.contains("(pii)"))
            for secret in ["eyJ", Self.megan.1, "MeganB", "code="] {
                #expect(!log.contains(secret), "the verbose log contains \(secret)")
            }
            let withPII = try await sandbox.msal(["token", "--force-refresh", "--verbose", "--log-pii"])
            #expect(withPII.stderr.contains("MeganB@contoso.onmicrosoft.com"))
            #expect(!withPII.stderr.contains("eyJ"))
        }
    }

    @Test("exit codes: usage 2, interaction required 3, identity platform 4, network 5, each with one clear line")
    func exitCodes() async throws {
        let stopped = try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { $0.baseURL }
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }

            let unknown = try await sandbox.msal(["frobnicate"])
            #expect(unknown.status == 2)
            let badURL = try await sandbox.msal(["call", "not a url", "--scopes", "x"])
            #expect(badURL.status == 2 && badURL.stderr.contains("is not an http(s) URL"))
            let exclusive = try await sandbox.msal(["login", "--device-code", "--no-browser"])
            #expect(exclusive.status == 2)

            let nobody = try await sandbox.msal(["token"])
            #expect(nobody.status == 3 && nobody.stdout.isEmpty)

            let unknownClient = try await sandbox.msal([
                "login", "--device-code", "--client-id", "00000000-0000-0000-0000-0000000000aa",
            ])
            #expect(unknownClient.status == 4, "\(unknownClient.stderr)")
            #expect(unknownClient.stderr.hasPrefix("msal: AADSTS700016"))
            #expect(unknownClient.stderr.contains("[correlation id "))
            #expect(unknownClient.stderr.split(separator: "\n").count == 1)

            let offline = try await sandbox.msal([
                "accounts", "--authority", stopped.appendingPathComponent("contoso.onmicrosoft.com").absoluteString,
            ])
            #expect(offline.status == 5, "\(offline.stderr)")
            #expect(offline.stderr.hasPrefix("msal: ") && offline.stderr.split(separator: "\n").count == 1)
            let details = try await sandbox.msal([
                "accounts", "--verbose", "--authority",
                stopped.appendingPathComponent("contoso.onmicrosoft.com").absoluteString,
            ])
            #expect(details.stderr.contains("internal error -42605 (transportFailed)"))
        }
    }

    @Test("the config file is read, and a bad one stops with exit 2 naming the file and key")
    func configFile() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try FileManager.default.createDirectory(
                at: sandbox.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            let elsewhere = sandbox.root.appendingPathComponent("elsewhere.json").path
            try #"{"token_cache": "\#(elsewhere)"}"#.write(to: sandbox.configFile, atomically: true, encoding: .utf8)
            let login = try await sandbox.msal(
                ["login", "--verbose"], ["BROWSER": CLISandbox.browser(Self.megan.0, Self.megan.1)])
            #expect(login.status == 0)
            #expect(login.stderr.contains("msal: token cache: \(elsewhere) (config file)"))
            #expect(FileManager.default.fileExists(atPath: elsewhere))

            try #"{"tokencache": "x"}"#.write(to: sandbox.configFile, atomically: true, encoding: .utf8)
            let typo = try await sandbox.msal(["accounts"])
            #expect(typo.status == 2)
            #expect(typo.stderr.contains(sandbox.configFile.path) && typo.stderr.contains("unknown key \"tokencache\""))
            try "{not json".write(to: sandbox.configFile, atomically: true, encoding: .utf8)
            let broken = try await sandbox.msal(["accounts"])
            #expect(broken.status == 2 && broken.stderr.contains("not a JSON object"))
        }
    }

    @Test("a corrupt cache file: one warning, a kept copy, an empty cache; a read-only one: an error naming it")
    func badCacheFile() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let folder = (sandbox.cachePath as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "{\"AccessToken\": {".write(toFile: sandbox.cachePath, atomically: true, encoding: .utf8)
            let first = try await sandbox.msal(["accounts"])
            #expect(first.status == 0)
            #expect(
                first.stderr.hasPrefix("msal: warning: the token cache \(sandbox.cachePath) could not be read"),
                "\(first.stderr)")
            #expect(first.stderr.components(separatedBy: "warning").count == 2, "warned once")
            let copies = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
                $0.hasPrefix("token_cache.json.corrupt-")
            }
            #expect(copies.count == 1)
            let second = try await sandbox.msal(["accounts"])
            #expect(!second.stderr.contains("warning"))

            try await sandbox.loginAsMegan()
            chmod(sandbox.cachePath, 0o400)
            let readOnly = try await sandbox.msal(["logout"])
            #expect(readOnly.status == 1)
            #expect(readOnly.stderr == "msal: The token cache \(sandbox.cachePath) is read-only.\n")
            chmod(sandbox.cachePath, 0o600)
            // The copy set aside may hold refresh tokens: signing out removes it.
            let loggedOut = try await sandbox.msal(["logout"])
            #expect(loggedOut.status == 0 && loggedOut.stderr.contains("Removed 1 set-aside copy of the token cache."))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder).filter {
                    $0.hasPrefix("token_cache.json.corrupt-")
                }.isEmpty)
        }
    }

    static func json(_ result: CLIResult) throws -> [String: Any] {
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else {
            throw CLITestFailure("exit \(result.status): \(result.stdout)\(result.stderr)")
        }
        return object
    }

    static func grants(_ emulator: RunningEmulator) async throws -> [String] {
        try await served(emulator, path: "/oauth2/v2.0/token").filter { !$0.isEmpty }
    }

    /// The grant types (empty for other requests) of the requests the emulator served whose path ends with `path`.
    static func served(_ emulator: RunningEmulator, path: String) async throws -> [String] {
        try await withHTTP(trusting: emulator.caCertificateFile?.path) { http in
            let response = try await http.get(
                url: emulator.baseURL.appendingPathComponent("_emulator/requests").absoluteString + "?path=\(path)"
            ).get()
            let body = response.body.map { Data($0.readableBytesView) } ?? Data()
            let list =
                (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["requests"] as? [[String: Any]] ?? []
            return list.map { $0["grant_type"] as? String ?? "" }
        }
    }

    static func match(_ pattern: String, in text: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let found = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(found.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    /// A client that does not follow redirects; trusts `ca` (a PEM file) besides the system's roots.
    static func withHTTP<T: Sendable>(trusting ca: String? = nil, _ body: (HTTPClient) async throws -> T) async throws
        -> T
    {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        if let ca {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.file(ca)]
            configuration.tlsConfiguration = tls
        }
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            let value = try await body(http)
            try await http.shutdown()
            return value
        } catch {
            try? await http.shutdown()
            throw error
        }
    }
}
