import Foundation
import IdentityEmulator
import Testing

/// `msal token --format token|json|az|tsv` and `--decode`: Azure CLI's answer as the real `az account
/// get-access-token` prints it against the same emulator, in a fixed time zone so local times are deterministic.
@Suite("msal token --format and --decode", .timeLimit(.minutes(5)))
struct TokenFormatTests {
    typealias IDs = Directory.DemoIDs
    /// A POSIX time zone (no tzdata needed) half an hour off the hour, so a time shown in UTC would not pass.
    static let zone = ["TZ": "IST-5:30"]

    @Test("--format az: the keys and formats of az account get-access-token; --format tsv: its -o tsv columns")
    func azureCLIShape() async throws {
        try await AzureCLI.with { cli in
            _ = try await cli.json([
                "login", "--service-principal", "--username", IDs.confidentialClient, "--password",
                IDs.confidentialSecret, "--tenant", IDs.contosoTenant,
            ])
            // With --tenant Azure CLI leaves out `subscription`, which msal has no notion of.
            let asked = ["account", "get-access-token", "--tenant", IDs.contosoTenant]
            let az = try #require(try await cli.json(asked, Self.zone) as? [String: Any])
            let azTSV = try await cli.run(asked + ["--output", "tsv"], Self.zone)
            #expect(azTSV.status == 0, "\(azTSV.stderr)")

            let sandbox = try CLISandbox(emulator: cli.emulator)
            defer { sandbox.remove() }
            let trust = ["MSAL_CA_BUNDLE": cli.caFile]
            try await sandbox.loginAsMegan(trust)
            let environment = trust.merging(Self.zone) { $1 }
            let ours = try CLICommandTests.json(try await sandbox.msal(["token", "--format", "az"], environment))

            #expect(Set(ours.keys) == Set(az.keys))
            #expect(Set(ours.keys) == ["accessToken", "expiresOn", "expires_on", "tenant", "tokenType"])
            for (who, answer) in [("az", az), ("msal", ours)] {
                let expiry = try #require(answer["expires_on"] as? Int, "\(who): \(answer)")
                #expect(answer["expiresOn"] as? String == Self.inTheZone(expiry), "\(who)")
                #expect(answer["tokenType"] as? String == "Bearer", "\(who)")
                #expect(answer["tenant"] as? String == IDs.contosoTenant, "\(who)")
                #expect((answer["accessToken"] as? String)?.split(separator: ".").count == 3, "\(who)")
            }

            let tsv = try await sandbox.msal(["token", "--format", "tsv"], environment)
            #expect(tsv.status == 0, "\(tsv.stderr)")
            for (answer, line) in [(az, azTSV.stdout), (ours, tsv.stdout)] {
                // Azure CLI's -o tsv: a dictionary's values in the order of its keys.
                let expected = answer.sorted { $0.key < $1.key }.map { "\($0.value)" }.joined(separator: "\t")
                #expect(line == expected + "\n")
            }
            #expect(tsv.stdout.hasPrefix(try #require(ours["accessToken"] as? String) + "\t"))
        }
    }

    @Test("the token alone by default; --format json is --json; --decode explains the claims without the token")
    func formatsAndDecode() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await sandbox.loginAsMegan()
            let token = try await sandbox.msal(["token", "--format", "token"])
            #expect(token.status == 0 && token.stdout.split(separator: ".").count == 3 && token.stdout.hasSuffix("\n"))
            let json = try CLICommandTests.json(try await sandbox.msal(["token", "--format", "json"]))
            let legacy = try CLICommandTests.json(try await sandbox.msal(["token", "--json"]))
            #expect(Set(json.keys) == Set(legacy.keys))
            #expect(json["token"] as? String == legacy["token"] as? String)

            let decoded = try await sandbox.msal(["token", "--decode"], Self.zone)
            #expect(decoded.status == 0, "\(decoded.stderr)")
            let signature = try #require(token.stdout.split(separator: ".").last).dropLast()
            #expect(!decoded.stdout.contains(signature), "the token itself is not printed")
            #expect(
                decoded.stdout.contains(#/\naud +00000003-0000-0000-c000-000000000000 +The audience: /#),
                "\(decoded.stdout)")
            // The token's own `exp`: `expires_on` counts `expires_in` from the answer's arrival, which can fall in
            // the next second after the emulator signed the token.
            let expiry = try #require(AzureCLITests.claims(String(token.stdout.dropLast()))["exp"] as? Int)
            #expect(decoded.stdout.contains("\(expiry) (\(Self.inTheZone(expiry, fraction: false)) IST)"))
            let claims = try CLICommandTests.json(try await sandbox.msal(["token", "--decode", "--json"]))
            #expect((claims["claims"] as? [String: Any])?["exp"] as? Int == expiry)

            for conflict in [["--json", "--format", "az"], ["--decode", "--format", "tsv"]] {
                let refused = try await sandbox.msal(["token"] + conflict)
                #expect(refused.status == 2, "\(conflict): \(refused.stderr)")
            }
        }
    }

    /// `seconds` in UTC+5:30, as Python's `datetime.fromtimestamp` prints it (`2025-03-01 14:05:09.000000`).
    static func inTheZone(_ seconds: Int, fraction: Bool = true) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 5 * 3600 + 1800)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))) + (fraction ? ".000000" : "")
    }
}
