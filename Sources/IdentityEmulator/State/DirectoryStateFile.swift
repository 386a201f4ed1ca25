import AtomicFiles
import Foundation
import Logging

/// The file that keeps the emulator's directory as changed (users signed up, passwords reset, methods registered,
/// directories imported) across restarts (`--state FILE`): a directory file, as `--config` reads it, read at start
/// when it exists and replaced after each change, `0600` (it holds passwords) and atomically.
struct DirectoryStateFile: Sendable {
    let url: URL
    let logger: Logger

    /// The directory the file holds; `nil` when there is no file yet.
    ///
    /// - Throws: ``DirectoryConfigurationError`` for a file that is not a valid directory.
    func load() throws -> Directory? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Directory.load(contentsOf: url)
    }

    /// Replaces the file with `directory`.
    ///
    /// - Throws: why it could not be written.
    func write(_ directory: Directory) throws {
        try AtomicFile.write(try directory.fileContents(), to: url.path)
    }

    /// Replaces the file with `directory`, logging a failure: the change stays in memory either way.
    func save(_ directory: Directory) {
        do {
            try write(directory)
        } catch {
            logger.error("the state file could not be written", metadata: ["path": "\(url.path)", "error": "\(error)"])
        }
    }
}

extension Directory {
    /// The directory as a directory file (`--config`, `--state` and `POST /_emulator/import` read it): indented JSON
    /// with sorted keys and a final line break.
    ///
    /// - Throws: an encoding error (none for a directory that was decoded or validated).
    func fileContents() throws -> Data {
        try Self.fileEncoder.encode(self) + Data("\n".utf8)
    }

    private static let fileEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
