import Foundation
import Testing

/// A process killed with SIGKILL in the middle of cache saves, again and again: after each kill the file parses and
/// holds the last save the process reported or the one it was finishing, and its lock file does not stop the next
/// process (its owner is gone, so it is stale).
@Suite("Crash consistency of the cache file", .timeLimit(.minutes(2)))
struct CrashConsistencyTests {
    @Test("30 writers killed at random points: the file always parses and holds save N or N+1; no lock outlives them")
    func killedWriters() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("token_cache.json")
        var generator = SystemRandomNumberGenerator()
        var completed = 0
        for round in 0..<30 {
            let writer = try CLIProcess(
                Binaries.url("cache-stress"), ["crash-writer", "--cache", cache.path, "--after", "\(completed)"],
                environment: ["PATH": "/usr/bin:/bin"])
            // Let it complete between 1 and 5 saves, then kill it wherever it is by then.
            let saves = Int.random(in: 1...5, using: &generator)
            _ = try await writer.waitForOutput { text -> Bool? in
                text.components(separatedBy: "saved ").count > saves ? true : nil
            }
            writer.kill()
            // The last save it reported before it died; the one after may have completed unreported.
            let last = try #require(
                try await writer.finish().stderr.split(separator: "\n").compactMap { line in
                    line.hasPrefix("saved ") ? Int(line.dropFirst(6)) : nil
                }.last)
            let data = try Data(contentsOf: cache)
            let object = try #require(
                try JSONSerialization.jsonObject(with: data) as? [String: Any], "round \(round): the file must parse")
            let sequence = try #require(object["sequence"] as? Int)
            #expect(
                sequence == last || sequence == last + 1, "round \(round): saved \(last), the file holds \(sequence)")
            completed = sequence
        }
        // The last writer's lock file, if it left one, names a dead process: the next save takes the lock.
        let next = try CLIProcess(
            Binaries.url("cache-stress"), ["crash-writer", "--cache", cache.path, "--after", "\(completed)"],
            environment: ["PATH": "/usr/bin:/bin"])
        _ = try await next.waitForOutput { $0.contains("saved ") ? true : nil }
        next.kill()
        _ = try await next.finish()
    }
}
