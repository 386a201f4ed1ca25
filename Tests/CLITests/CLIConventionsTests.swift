import ArgumentParser
import EmulatorAutomation
import Foundation
import IdentityEmulator
import TestServers
import Testing

@testable import MSALCommandLine

/// The conventions users of `az` and `gh` expect: global options on either side of the subcommand,
/// `SSL_CERT_FILE`, a reason when `$BROWSER` does not start, and "not signed in" known without the network.
@Suite("msal follows az and gh conventions", .timeLimit(.minutes(5)))
struct CLIConventionsTests {
    static let megan = CLICommandTests.megan

    // MARK: (a) Global options before the subcommand

    /// Every command that takes the global options, with the arguments it needs to parse.
    static let commands: [[String]] = [
        ["login"], ["me"], ["token"], ["accounts"], ["logout"], ["device-info"],
        ["call", "https://api.example/x", "--scopes", "s"],
        ["native", "signup", "--email", "e@x.example"], ["native", "signin", "--email", "e@x.example"],
        ["native", "reset-password", "--email", "e@x.example"], ["native", "token", "--scopes", "s"],
        ["native", "call", "https://api.example/x", "--scopes", "s"], ["native", "signout"],
    ]

    /// All nine global options, in both spellings (`--opt=value`, `--opt value`).
    static let allGlobals = [
        "--authority=https://login.example/organizations", "--client-id", "cid", "--redirect-uri", "http://localhost:5",
        "--cache", "/c/cache.json", "--graph-endpoint=https://graph.example", "--ca-bundle", "/c/ca.pem",
        "--json", "--verbose", "--log-pii",
    ]
    static let allGlobalsParsed = [
        "https://login.example/organizations", "cid", "http://localhost:5", "/c/cache.json", "https://graph.example",
        "/c/ca.pem", "true", "true", "true",
    ]

    @Test("(a) every global option works before the subcommand as after it", arguments: commands)
    func globalsOnEitherSide(_ command: [String]) throws {
        let before = try Self.globals(MSALCommand.parseAsRoot(Self.allGlobals + command))
        let after = try Self.globals(MSALCommand.parseAsRoot(command + Self.allGlobals))
        #expect(before == Self.allGlobalsParsed)
        #expect(after == Self.allGlobalsParsed)
        let arguments = ["--authority", "https://a.example/t", "--json"] + command + ["--verbose"]
        let split = try Self.globals(MSALCommand.parseAsRoot(arguments))
        #expect(split == ["https://a.example/t", "-", "-", "-", "-", "-", "true", "true", "false"])
    }

    @Test("(a) given on both sides, the last one wins; `--` ends the options; a value is never a subcommand")
    func globalsEdgeCases() throws {
        let twice = try MSALCommand.parseAsRoot(
            ["--authority", "https://first.example/t", "token", "--authority", "https://last.example/t"])
        #expect(try Self.globals(twice).first == "https://last.example/t")
        let twiceBefore = try MSALCommand.parseAsRoot(["--cache", "/a.json", "--cache=/b.json", "token"])
        #expect(try Self.globals(twiceBefore)[3] == "/b.json")

        // A value that names a subcommand stays a value.
        let named = try MSALCommand.parseAsRoot(["--cache", "login", "token"])
        #expect(named is Token)
        #expect(try Self.globals(named)[3] == "login")

        // After `--`, an option's spelling is an argument: here the URL `call` then refuses.
        let terminated = #expect(throws: (any Error).self) {
            try MSALCommand.parseAsRoot(["--verbose", "call", "--scopes", "s", "--", "--authority"])
        }
        #expect(terminated.map { MSALCommand.message(for: $0) } == "--authority is not an http(s) URL.")
        #expect(throws: (any Error).self) { try MSALCommand.parseAsRoot(["--frobnicate", "token"]) }
        #expect(throws: (any Error).self) { try MSALCommand.parseAsRoot(["--authority"]) }
    }

    @Test("(a) msal --help lists the global options and the subcommands; demo refuses global options")
    func helpAndDemo() async throws {
        let help = try await CLIProcess.run(Binaries.url("msal"), ["--help"], environment: [:])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("GLOBAL OPTIONS:") && help.stdout.contains("--authority <url>"))
        #expect(help.stdout.contains("SUBCOMMANDS:") && help.stdout.contains("before or after the subcommand"))
        let login = try await CLIProcess.run(Binaries.url("msal"), ["--verbose", "login", "--help"], environment: [:])
        #expect(login.status == 0 && login.stdout.contains("--login-hint") && login.stdout.contains("--ca-bundle"))

        let demo = try await CLIProcess.run(Binaries.url("msal"), ["--verbose", "demo", "--json"], environment: [:])
        #expect(demo.status == 2)
        #expect(demo.stderr.contains("msal demo takes no global options (--json, --verbose)"), "\(demo.stderr)")
    }

    @Test("(a) against the emulator: login, accounts and token take the global options before their name")
    func globalsBeforeTheSubcommandEndToEnd() async throws {
        let stopped = try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) {
            $0.authority("contoso.onmicrosoft.com").absoluteString
        }
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            // The environment points elsewhere: only the flags before the subcommand lead to the emulator and cache.
            let cache = sandbox.root.appendingPathComponent("elsewhere/cache.json").path
            let environment = ["MSAL_AUTHORITY": stopped, "BROWSER": CLISandbox.browser(Self.megan.0, Self.megan.1)]
            let login = try await sandbox.msal(
                ["--authority", sandbox.authority, "--cache=\(cache)", "login"],
                environment)
            #expect(login.status == 0, "\(login.stderr)")
            #expect(!login.stderr.contains("Could not start"), "$BROWSER started: \(login.stderr)")
            #expect(FileManager.default.fileExists(atPath: cache))

            let accounts = try await sandbox.msal(
                ["--json", "--authority=\(sandbox.authority)", "--cache", cache, "accounts"], environment)
            #expect(accounts.status == 0, "\(accounts.stderr)")
            let list = try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [[String: Any]]
            #expect(list?.first?["username"] as? String == Self.megan.0)

            let tokenArguments = ["--json", "--cache", cache, "--authority", sandbox.authority, "token"]
            let token = try CLICommandTests.json(await sandbox.msal(tokenArguments, environment))
            #expect(token["source"] as? String == "cache")
        }
    }

    // MARK: (b) SSL_CERT_FILE

    @Test("(b) SSL_CERT_FILE is added to the system's roots, with --ca-bundle still applying; a bad one is named")
    func sslCertFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-ssl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Another emulator's CA: a valid certificate that does not vouch for the emulator under test.
        let otherCA = try await IdentityEmulator.withRunning(
            EmulatorConfiguration(port: 0, tlsDirectory: folder.appendingPathComponent("other"))
        ) { try #require($0.caCertificateFile).path }
        let configuration = EmulatorConfiguration(port: 0, tlsDirectory: folder.appendingPathComponent("tls"))
        try await IdentityEmulator.withRunning(configuration) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let ca = try #require(emulator.caCertificateFile).path
            // `msal accounts` fetches the authority's metadata over TLS, even with nobody signed in; each run
            // has a cache folder of its own, so none finds the metadata a run before it kept.
            func accounts(_ environment: [String: String], _ extra: [String] = []) async throws -> CLIResult {
                let cache = folder.appendingPathComponent("run-\(UUID().uuidString)/token_cache.json").path
                return try await sandbox.msal(["accounts", "--cache", cache] + extra, environment)
            }

            let untrusted = try await accounts([:])
            #expect(untrusted.status == 5, "\(untrusted.stderr)")
            let other = try await accounts(["SSL_CERT_FILE": otherCA])
            #expect(other.status == 5, "\(other.stderr)")

            let trusted = try await accounts(["SSL_CERT_FILE": ca], ["--verbose"])
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(trusted.stderr.contains("msal: SSL_CERT_FILE: \(ca) (environment)"))
            let besideBundle = try await accounts(["SSL_CERT_FILE": ca], ["--ca-bundle", otherCA])
            #expect(besideBundle.status == 0, "SSL_CERT_FILE applies with --ca-bundle: \(besideBundle.stderr)")
            let bundleBeside = try await accounts(["SSL_CERT_FILE": otherCA], ["--ca-bundle", ca])
            #expect(bundleBeside.status == 0, "--ca-bundle applies with SSL_CERT_FILE: \(bundleBeside.stderr)")
            let variables = try await accounts(["MSAL_CA_BUNDLE": otherCA, "SSL_CERT_FILE": ca])
            #expect(variables.status == 0, "\(variables.stderr)")

            let missing = folder.appendingPathComponent("missing.pem").path
            let unreadable = try await accounts(["SSL_CERT_FILE": missing])
            #expect(unreadable.status == 2)
            #expect(unreadable.stderr == "msal: SSL_CERT_FILE (\(missing)) cannot be read.\n")
            let endless = try await accounts(["SSL_CERT_FILE": "/dev/zero"])
            #expect(endless.status == 2)
            #expect(endless.stderr == "msal: SSL_CERT_FILE (/dev/zero) is larger than 16 MiB.\n")
            let text = folder.appendingPathComponent("not-pem.txt")
            try Data("not a certificate\n".utf8).write(to: text)
            let notPEM = try await accounts(["SSL_CERT_FILE": text.path], ["--ca-bundle", ca])
            #expect(notPEM.status == 2)
            #expect(notPEM.stderr == "msal: SSL_CERT_FILE (\(text.path)) holds no PEM certificate.\n")
            #expect(try await accounts(["SSL_CERT_FILE": ""]).status == 5, "an empty SSL_CERT_FILE is unset")
        }
    }

    // MARK: (c) $BROWSER that does not start

    enum BrowserFailure: String, CaseIterable, Sendable {
        case notOnPath, missingFile, notExecutable, exitsAtOnce, wholeListFails

        /// The `$BROWSER` value, made in `folder`, and the reason `msal` should give.
        func install(in folder: URL) throws -> (browser: String, reason: String) {
            let missing = "msal-test-no-such-browser"
            let script = folder.appendingPathComponent("failing-browser")
            try Data("#!/bin/sh\nexit 3\n".utf8).write(to: script)
            chmod(script.path, 0o755)
            switch self {
            case .notOnPath:
                return (missing, "\(missing): not found")
            case .missingFile:
                let path = folder.appendingPathComponent("gone/firefox").path
                return (path, "\(path): not found")
            case .notExecutable:
                let file = folder.appendingPathComponent("plain-file")
                try Data("#!/bin/sh\n".utf8).write(to: file)
                chmod(file.path, 0o644)
                return (file.path, "\(file.path): not executable")
            case .exitsAtOnce:
                return ("\(script.path) --new-window %s", "\(script.path) exited with status 3")
            case .wholeListFails:
                return ("\(missing):\(script.path)", "\(missing): not found; \(script.path) exited with status 3")
            }
        }
    }

    @Test(
        "(c) when $BROWSER cannot be started, one line says why before the URL, which still signs in",
        arguments: BrowserFailure.allCases)
    func browserThatDoesNotStart(_ failure: BrowserFailure) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let (browser, reason) = try failure.install(in: sandbox.root)
            let running = try sandbox.start(["login"], ["BROWSER": browser])
            let printed = try await running.waitForOutput { $0.contains("/oauth2/v2.0/authorize") ? $0 : nil }
            let lines = printed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.count == 3 && lines.last == "", "one line, then the URL: \(printed)")
            #expect(lines.first == "Could not start $BROWSER (\(reason)); open this URL in a browser to sign in:")
            let url = try #require(lines.dropFirst().first.flatMap(URL.init(string:)))
            #expect(url.absoluteString.hasPrefix(emulator.baseURL.absoluteString + "/"))
            #expect(url.path.hasSuffix("/oauth2/v2.0/authorize"))

            try await CLICommandTests.withHTTP { http in
                let user = AutomatedUser(http: http, choices: [.signIn(username: Self.megan.0, password: Self.megan.1)])
                try await user.open(url)
            }
            let result = try await running.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Signed in as Megan Bowen"))
            #expect(result.stderr == printed, "nothing else on standard error")
        }
    }

    // MARK: (d) Nobody signed in: exit 3 before any request

    static let nobody = "msal: Nobody is signed in; run `msal login`.\n"
    static let unknown = "AdeleV@contoso.onmicrosoft.com"
    static let unknownLine = "msal: \(unknown) has not signed in here; run `msal login --login-hint \(unknown)`.\n"

    /// The commands that never sign in, with the line each prints when nobody (or not `unknown`) is signed in.
    static func notSignedIn(authority: String) -> [(arguments: [String], line: String)] {
        [
            (["token"], nobody), (["me", "--no-interactive"], nobody),
            (["--authority", authority, "token", "--json"], nobody),
            (["--authority", authority, "me", "--no-interactive", "--json"], nobody),
            (["token", "--username", unknown], unknownLine),
            (["me", "--no-interactive", "--username", unknown], unknownLine),
        ]
    }

    @Test("(d) with nobody signed in, token and me --no-interactive exit 3 without a request to the emulator")
    func nobodySignedInMakesNoRequest() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            for (arguments, line) in Self.notSignedIn(authority: sandbox.authority) {
                let result = try await sandbox.msal(arguments)
                #expect(result.status == 3 && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
                #expect(result.stderr == line, "\(arguments)")
            }
            #expect(try await CLICommandTests.served(emulator, path: "").isEmpty, "a request reached the emulator")

            // Someone else signed in: an unknown --username is still answered from the cache alone (without the
            // authority's metadata kept from the sign-in, finding the account would need discovery).
            try await sandbox.loginAsMegan()
            let metadata = URL(fileURLWithPath: sandbox.cachePath).deletingLastPathComponent()
                .appendingPathComponent("msal_authority_metadata.json")
            try FileManager.default.removeItem(at: metadata)
            let requests = try await CLICommandTests.served(emulator, path: "").count
            for (arguments, line) in Self.notSignedIn(authority: sandbox.authority) where line == Self.unknownLine {
                let result = try await sandbox.msal(arguments)
                #expect(result.status == 3 && result.stderr == line, "\(arguments): \(result.stderr)")
            }
            let after = try await CLICommandTests.served(emulator, path: "").count
            #expect(after == requests, "a request reached the emulator")
        }
    }

    @Test("(d) with nobody signed in and the authority unreachable, exit 3 (not 5 \"Cannot connect\")")
    func nobodySignedInOffline() async throws {
        // The sandbox outlives its emulator: its authority is the emulator's port, held closed from then on so that
        // no other test's server takes it (a new emulator when another one did in between).
        var held: (CLISandbox, ClosedPort)?
        for _ in 0..<5 where held == nil {
            let (sandbox, port) = try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) {
                (try CLISandbox(emulator: $0), $0.port)
            }
            if let closed = ClosedPort(port) { held = (sandbox, closed) } else { sandbox.remove() }
        }
        let (sandbox, closed) = try #require(held, "no emulator port could be held closed")
        defer { sandbox.remove() }
        defer { withExtendedLifetime(closed) {} }
        let accounts = try await sandbox.msal(["accounts"])
        #expect(accounts.status == 5 && accounts.stderr.contains("Cannot connect"), "unreachable: \(accounts.stderr)")
        for (arguments, line) in Self.notSignedIn(authority: sandbox.authority) {
            let result = try await sandbox.msal(arguments)
            #expect(result.status == 3 && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
            #expect(result.stderr == line, "\(arguments)")
        }
    }

    // MARK: Helpers

    /// The command's global options as strings (`-` when not given), in declaration order.
    static func globals(_ command: any ParsableCommand) throws -> [String] {
        let child = Mirror(reflecting: command).children.first { $0.label == "_global" }
        let group = try #require(child?.value as? OptionGroup<GlobalOptions>, "\(type(of: command)) has no `global`")
        let options = group.wrappedValue
        let values = [
            options.authority, options.clientID, options.redirectURI, options.cachePath,
            options.graphEndpoint, options.caBundle,
        ]
        return values.map { $0 ?? "-" } + [options.json, options.verbose, options.logPII].map(String.init)
    }
}
