import Locking
import Logging

/// Keeps every log line in memory, with its metadata, so a test can search it.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        let lines = Locked<[String]>([])
        var all: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
        file: String, function: String, line: UInt
    ) {
        let merged = self.metadata.merging(metadata ?? [:]) { $1 }
        store.lines.withLock { $0.append("\(level) \(message) \(merged)") }
    }
}
