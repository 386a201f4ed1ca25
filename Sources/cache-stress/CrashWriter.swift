import ArgumentParser
import Foundation
import MSAL

/// Test support for the crash-consistency test: saves numbered caches through the file persistence, under its lock,
/// as fast as it can, and prints `saved N` on standard error after each completed save, until it is killed.
struct CrashWriter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-writer",
        abstract: "Saves numbered caches under the cache lock until killed, printing each completed save.")

    @Option(help: "The cache file.") var cache: String
    @Option(help: "The number before the first save's.") var after = 0

    func run() async throws {
        let persistence = FileTokenCachePersistence(url: URL(fileURLWithPath: cache), lockTimeout: .seconds(30))
        // Large enough that a kill often lands inside a write.
        let padding = String(repeating: "x", count: 256 << 10)
        var sequence = after
        while true {
            sequence += 1
            let lock = try await persistence.lock()
            try await persistence.save(Data(#"{"sequence":\#(sequence),"padding":"\#(padding)"}"#.utf8))
            lock?.release()
            FileHandle.standardError.write(Data("saved \(sequence)\n".utf8))
        }
    }
}
