import EmulatorAutomation
import Foundation
import IdentityEmulator
import Testing

/// One cache file, three writers: MSAL Python, `msal login` (the workforce demo client) and `msal native signin`
/// (the External ID client). A client's sign-in replaces only that client's account, as MSAL for iOS does.
@Suite("Clients sharing one cache file", .timeLimit(.minutes(5)))
struct SharedCacheClientsTests {
    static let adele = ("AdeleV@contoso.onmicrosoft.com", "Adele-Demo-Pass2")

    @Test("a customer's native sign-in, and the next one replacing it, leave the other clients' entries as they were")
    func nativeSignInKeepsOtherClients() async throws {
        try await CacheInteropTests.withTLS { emulator, sandbox, ca in
            try await MSALPython.signInToFile(sandbox, ca: ca, as: Self.adele)
            let workforce = ["MSAL_CA_BUNDLE": ca]
            try await sandbox.loginAsMegan(workforce)
            let before = try Self.sections(sandbox.cachePath)
            let customers = [
                "MSAL_CA_BUNDLE": ca, "MSAL_CLIENT_ID": Directory.DemoIDs.externalPublicClient,
                "MSAL_AUTHORITY": emulator.authority("contosocustomers.onmicrosoft.com").absoluteString,
            ]

            let jane = try await sandbox.msal(
                ["native", "signin", "--email", "jane@example.com", "--password-stdin"], customers,
                input: "Jane-Demo-Pass4")
            #expect(jane.status == 0, "\(jane.stderr)")
            try Self.expectKept(before, in: sandbox.cachePath)
            #expect(try await Self.usernames(sandbox, customers) == ["jane@example.com"])
            #expect(try await Self.usernames(sandbox, workforce) == [Self.adele.0, CLICommandTests.megan.0])
            let token = try await CLICommandTests.json(sandbox.msal(["token", "--json"], workforce))
            #expect(token["account"] as? String == CLICommandTests.megan.0 && token["source"] as? String == "cache")

            let sam = try sandbox.start(
                ["native", "signin", "--email", "sam@example.com"], customers, takingInput: true)
            _ = try await sam.waitForOutput { $0.contains("Code (or 'resend'): ") ? true : nil }
            sam.send(
                try await CLICommandTests.withHTTP(trusting: ca) {
                    try await Outbox(base: emulator.baseURL, http: $0).lastCode(to: "sam@example.com")
                })
            let samResult = try await sam.finish()
            #expect(samResult.status == 0, "\(samResult.stderr)")
            try Self.expectKept(before, in: sandbox.cachePath)
            #expect(
                try await Self.usernames(sandbox, customers) == ["sam@example.com"], "Sam replaced Jane for this client"
            )
            #expect(try await Self.usernames(sandbox, workforce) == [Self.adele.0, CLICommandTests.megan.0])
        }
    }

    /// The file's sections, each entry by key.
    static func sections(_ path: String) throws -> [String: [String: NSDictionary]] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return document.compactMapValues { $0 as? [String: NSDictionary] }
    }

    /// Every entry of `before` is in the file, unchanged.
    static func expectKept(_ before: [String: [String: NSDictionary]], in path: String) throws {
        let after = try sections(path)
        for (section, entries) in before {
            for (key, entry) in entries {
                #expect(after[section]?[key]?.isEqual(entry) == true, "\(section) \(key) was changed or removed")
            }
        }
    }

    /// The usernames `msal accounts` lists with `environment`'s client, sorted.
    static func usernames(_ sandbox: CLISandbox, _ environment: [String: String]) async throws -> [String] {
        let result = try await sandbox.msal(["accounts", "--json"], environment)
        let accounts = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stderr)")
        return accounts.compactMap { $0["username"] as? String }.sorted { $0.lowercased() < $1.lowercased() }
    }
}
