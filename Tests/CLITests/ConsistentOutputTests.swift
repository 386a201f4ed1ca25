import Foundation
import IdentityEmulator
import Logging
import Testing

@testable import MSALCommandLine

/// One shape for every `--json` output, every command honouring `--json`, the verbose log said once a line, and the
/// first-run keyring notice in plain words.
@Suite("msal's output: one JSON shape, the verbose log, the keyring notice", .timeLimit(.minutes(5)))
struct ConsistentOutputTests {
    @Test(
        "the JSON rule: pretty, keys sorted, slashes as they are, empty arrays and objects as [] and {}",
        arguments: [
            ([String](), "[]"),
            ([String: String](), "{}"),
            (["b": [String](), "a": [String: Int]()] as [String: any Sendable], "{\n  \"a\" : {},\n  \"b\" : []\n}"),
            (["url": "http://x/y"], "{\n  \"url\" : \"http://x/y\"\n}"),
            (["text": "[\n\n]"], "{\n  \"text\" : \"[\\n\\n]\"\n}"),
        ] as [(any Sendable, String)])
    func rule(value: any Sendable, printed: String) throws {
        #expect(try JSONOutput.text(value) == printed)
    }

    @Test("the rule's writer prints what JSONSerialization prints (pretty, keys sorted, slashes as they are)")
    func sameAsFoundation() throws {
        let json =
            #"{"t":true,"f":false,"i":42,"n":-7,"d":1.5,"e":1e20,"z":3600.0,"s":0.1,"big":12345678901234567890,"#
            + #""null":null,"nested":{"list":[1,"two",{"three":[]}],"empty":{}},"text":"a\u0001b\"c\\/é"}"#
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let values: [Any] = [
            parsed,
            [
                "doubles": [
                    0.1 + 0.2, 1.0 / 3, 123456.789, 1e300, 5e-324, 9007199254740992.0, 1e16, 100.0, 1e-5, -0.0,
                ],
                "integers": [0, -1, Int.max, Int.min], "int64": Int64(5), "flags": [true, false],
            ] as [String: Any],
            ["control": "tab\tline\nreturn\rbell\u{7}back\u{8}feed\u{C}del\u{7F}sep\u{2028}", "url": "http://x/y?a=b"],
            [NSNull(), "x", 1, [[String: Any]](), [Any]()] as [Any],
            "just a string", 7, true,
        ]
        for value in values {
            let foundation = String(
                decoding: try JSONSerialization.data(
                    withJSONObject: value,
                    options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]),
                as: UTF8.self
            ).replacing(#/\[\n\s*\]/#, with: "[]").replacing(#/\{\n\s*\}/#, with: "{}")
            let ours = try JSONOutput.text(value)
            #expect(ours == foundation, "ours:\n\(ours)\nJSONSerialization's:\n\(foundation)")
        }
        #expect(throws: JSONOutput.Unrepresentable.self) { try JSONOutput.text(["date": Date()]) }
        #expect(throws: JSONOutput.Unrepresentable.self) { try JSONOutput.text([Double.nan]) }
    }

    /// `stdout` is one JSON value printed by the rule, ended by a newline.
    static func expectByTheRule(
        _ result: CLIResult, _ command: String, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        #expect(result.status == 0, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: .fragmentsAllowed)
        #expect(
            result.stdout == (try JSONOutput.text(value)) + "\n", "\(command): \(result.stdout)",
            sourceLocation: sourceLocation)
    }

    @Test("every command's --json follows the rule, signed in or not: me, call, logout and native signout included")
    func everyCommandsJSON() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            let me = emulator.baseURL.appendingPathComponent("v1.0/me").absoluteString
            let nobody: [([String], String)] = [
                (["accounts", "--json"], "[]\n"),
                (["logout", "--json"], "{\n  \"signed_out\" : []\n}\n"),
                (["native", "signout", "--json"], "{\n  \"signed_out\" : []\n}\n"),
            ]
            for (arguments, printed) in nobody {
                let result = try await sandbox.msal(arguments)
                #expect(
                    result.status == 0 && result.stdout == printed, "\(arguments): \(result.stdout)\(result.stderr)")
            }
            try await sandbox.loginAsMegan()
            for arguments in [
                ["me", "--json"], ["call", me, "--scopes", "User.Read", "--json"], ["token", "--json"],
                ["accounts", "--json"], ["device-info", "--json"], ["logout", "--json"],
            ] {
                let result = try await sandbox.msal(arguments)
                try Self.expectByTheRule(result, arguments.joined(separator: " "))
                #expect(result.stdout.hasPrefix("{\n") || result.stdout.hasPrefix("[\n"), "\(arguments): pretty")
            }
        }
    }

    @Test("msal call --json: an answer that is not JSON fails and says to drop --json")
    func callJSONOfText() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await sandbox.loginAsMegan()
            let page = emulator.baseURL.appendingPathComponent("common/oauth2/v2.0/logout").absoluteString
            let result = try await sandbox.msal(["call", page, "--scopes", "User.Read", "--json"])
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("did not answer with JSON; drop --json"), "\(result.stderr)")
        }
    }

    @Test("--verbose: each log line says msal, the time, the level, the message and its metadata once")
    func verboseLog() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await sandbox.loginAsMegan()
            let token = try await sandbox.msal(["token", "--force-refresh", "--verbose"])
            #expect(token.status == 0, "\(token.stderr)")
            let logLines = token.stderr.split(separator: "\n").filter { $0.contains(" identity platform request") }
            #expect(!logLines.isEmpty, "\(token.stderr)")
            for line in logLines {
                #expect(
                    line.wholeMatch(
                        of:
                            #/msal: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z debug identity platform request attempt=1 method=\w+ path=\S+/#
                    ) != nil, "\(line)")
            }
            #expect(!token.stderr.contains("[MSAL]") && !token.stderr.contains(" MSAL: "), "\(token.stderr)")
        }
    }

    @Test("a log line puts the handler's and the event's metadata in key order, then the error")
    func verboseLine() {
        struct Failure: Error, CustomStringConvertible { var description: String { "boom" } }
        let event = LogEvent(
            level: .info, message: "refresh finished", error: Failure(), metadata: ["tenant": "t1", "attempt": "2"],
            source: "MSAL", file: #fileID, function: #function, line: #line)
        let line = VerboseLogHandler.line(event, handlerMetadata: ["app": "cli"], at: Date(timeIntervalSince1970: 0))
        #expect(line == "msal: 1970-01-01T00:00:00.000Z info refresh finished app=cli attempt=2 tenant=t1 error=boom")
    }

    @Test("no keyring: the first run says in plain words where the tokens are and how to keep them there quietly")
    func keyringNotice() {
        let notice = TokenCacheStorage.keyringNotice(
            reason: "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)",
            file: URL(fileURLWithPath: "/home/u/.cache/msal/token_cache.json"))
        #expect(
            notice == """
                msal: There is no keyring (Secret Service) here: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set).
                msal: Your tokens are saved in /home/u/.cache/msal/token_cache.json, a file only you can read. To use that file without this notice, run: msal config set cache_backend file
                """)
    }
}
