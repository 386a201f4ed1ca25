import Foundation
import IdentityEmulator
import Testing

/// A token is for named scopes: an empty `--scopes` would be handed whatever token the cache holds.
@Suite("msal with an empty --scopes", .timeLimit(.minutes(2)))
struct EmptyScopesTests {
    @Test("token, call, native token and native call refuse an empty --scopes with exit 2, a user signed in or not")
    func emptyScopesAreAUsageError() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await sandbox.loginAsMegan()
            let api = emulator.baseURL.appendingPathComponent("api1/todolist").absoluteString
            let native = ["MSAL_CLIENT_ID": Directory.DemoIDs.externalPublicClient]
            for (arguments, environment) in [
                (["token", "--scopes", ""], [:]), (["token", "--scopes", " , "], [:]),
                (["token", "--scopes", "", "--json"], [:]), (["call", api, "--scopes", ""], [:]),
                (["native", "token", "--scopes", ""], native), (["native", "call", api, "--scopes", ""], native),
            ] as [([String], [String: String])] {
                let result = try await sandbox.msal(arguments, environment)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(arguments): no token printed")
                #expect(result.stderr.contains("Name the scope with --scopes."), "\(arguments): \(result.stderr)")
            }
            let named = try await CLICommandTests.json(sandbox.msal(["token", "--scopes", "User.Read", "--json"]))
            #expect(named["source"] as? String == "cache")
        }
    }
}
