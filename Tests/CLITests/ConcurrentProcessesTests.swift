import Foundation
import IdentityEmulator
import Testing

/// Four processes, one cache file: each runs 250 operations (interactive sign-ins, forced refreshes,
/// silent calls from the cache) against the emulator while this test reads the file whenever one of
/// them reports progress.
@Suite("Four processes sharing one cache file", .timeLimit(.minutes(10)))
struct ConcurrentProcessesTests {
    @Test("4 processes × 250 mixed operations: nothing lost, the file always valid")
    func fourProcesses() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, accessTokenLifetime: 3600)) { emulator in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "msal-stress-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let cache = folder.appendingPathComponent("token_cache.json")
            let ids = Directory.DemoIDs.self
            let workers = [
                (ids.publicClient, "MeganB@contoso.onmicrosoft.com", "Megan-Demo-Pass1"),
                (ids.publicClient, "AdeleV@contoso.onmicrosoft.com", "Adele-Demo-Pass2"),
                (ids.publicClient, "AlexW@fabrikam.onmicrosoft.com", "Alex-Demo-Pass3"),
                (ids.familyClientOne, "MeganB@contoso.onmicrosoft.com", "Megan-Demo-Pass1"),
            ]
            let processes = try workers.map { client, username, password in
                try CLIProcess(
                    Binaries.url("cache-stress"),
                    [
                        "--cache", cache.path, "--authority", emulator.authority("organizations").absoluteString,
                        "--client", client, "--username", username, "--password", password, "--operations", "250",
                    ], environment: ProcessInfo.processInfo.environment)
            }

            // Every file this test reads, between any writes, must be a whole cache (writes are atomic renames).
            enum Event { case progress, done }
            let (events, report) = AsyncStream.makeStream(of: Event.self)
            var reads = 0
            var invalid = 0
            await withTaskGroup(of: Void.self) { group in
                for process in processes {
                    group.addTask {
                        _ = try? await process.waitForOutput { text -> Bool? in
                            report.yield(.progress)
                            return text.contains("op 249\n") ? true : nil
                        }
                        report.yield(.done)
                    }
                }
                var done = 0
                for await event in events {
                    if case .done = event {
                        done += 1
                        if done == processes.count { break }
                        continue
                    }
                    guard let data = FileManager.default.contents(atPath: cache.path) else { continue }
                    reads += 1
                    if (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] == nil { invalid += 1 }
                }
            }
            for process in processes {
                let result = try await process.finish()
                #expect(result.status == 0, "\(result.stderr.suffix(2000))")
                #expect(result.stdout.contains(#""signIns":25,"refreshes":75,"silent":150"#), "\(result.stdout)")
            }
            #expect(reads > 0)
            #expect(invalid == 0, "\(invalid) of \(reads) reads were not a whole cache")

            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: cache)) as? [String: Any])
            let accounts = (document["Account"] as? [String: [String: Any]] ?? [:]).values.compactMap {
                $0["username"] as? String
            }
            #expect(
                Set(accounts) == [
                    "MeganB@contoso.onmicrosoft.com", "AdeleV@contoso.onmicrosoft.com",
                    "AlexW@fabrikam.onmicrosoft.com",
                ])
            let refreshTokens = (document["RefreshToken"] as? [String: [String: Any]] ?? [:]).values
            for (client, username, _) in workers {
                let home = try #require(
                    (document["Account"] as? [String: [String: Any]])?.values
                        .first { $0["username"] as? String == username }?["home_account_id"] as? String)
                #expect(
                    refreshTokens.contains {
                        $0["home_account_id"] as? String == home && $0["client_id"] as? String == client
                    },
                    "no refresh token for \(username) in \(client)")
            }
            #expect(!FileManager.default.fileExists(atPath: cache.path + ".lockfile"))
        }
    }
}
