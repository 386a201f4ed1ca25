import ChildProcesses
import Foundation
import Testing

@Suite("The msal binary", .timeLimit(.minutes(5)))
struct DemoCommandTests {
    /// The built `msal` next to this test bundle (both are products of the same build).
    static var binary: URL {
        if let configured = ProcessInfo.processInfo.environment["MSAL_CLI"] { return URL(fileURLWithPath: configured) }
        let beside = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("msal")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent(".build/debug/msal")
    }

    /// Runs the binary on its own thread (not on the cooperative pool) and collects its output.
    static func run(_ arguments: [String], binary: URL = binary) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(binary.path, arguments, error: .standardOutput)
        return (result.termination.shellStatus, result.text)
    }

    @Test("msal demo walks the whole story and exits 0")
    func demo() async throws {
        let (status, output) = try await Self.run(["demo"])
        #expect(status == 0, "\(output)")
        for line in [
            "1. Sign in interactively", "displayName: Megan Bowen", "from the cache",
            "new access token from the identity platform", "device mode: private",
            "AdeleV@contoso.onmicrosoft.com signed in", "todo-api (API 1 and API 2) is running at", "API 1: HTTP 200",
            "API 2: HTTP 200", "every user's list",
            "signed out", "Native auth: sign up", "New Customer signed up", "API 2: token from the refresh token",
            "\"password\" refused (password_too_weak)", "signed in with the new password", "roles: ToDoList.Read.All",
            "API 1: HTTP 200 for app", "the same token again from the cache", "(on-behalf-of): /me is Sam Codeonly",
            "Graph token from the cache", "managed identities", "vm-1 (IMDS)", "app-1 (App Service)",
            "a second step is needed", "lee@example.com is signed in", "registered noah.backup@example.com",
            "API 1 on Vapor: HTTP 200 for app", "without a token: HTTP 401, WWW-Authenticate: Bearer",
            "Done: 16 steps passed",
        ] {
            #expect(output.contains(line), "missing '\(line)' in:\n\(output)")
        }
        #expect(!output.contains("eyJ"), "a token was printed")
    }

    @Test("msal --help documents the exit codes")
    func help() async throws {
        let (status, output) = try await Self.run(["--help"])
        #expect(status == 0)
        #expect(output.contains("3 interaction required"))
        #expect(output.contains("demo"))
    }
}
