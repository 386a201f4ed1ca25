import Foundation
import Logging

/// `--verbose`: the library's log on standard error, one line an event, said once:
/// `msal: 2026-11-26T23:33:08.123Z debug identity platform request attempt=1 method=GET path=/common/…`
/// (the time in UTC, the level, the message, then the metadata sorted by key), without the logger's label or source.
struct VerboseLogHandler: LogHandler {
    let console: Console
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]

    /// The library's logger at `debug`, writing through `console`.
    static func logger(console: Console) -> Logger {
        var logger = Logger(label: "MSAL") { _ in VerboseLogHandler(console: console) }
        logger.logLevel = .debug
        return logger
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        console.err(Self.line(event, handlerMetadata: metadata, at: Date()))
    }

    /// The line printed for `event`.
    static func line(_ event: LogEvent, handlerMetadata: Logger.Metadata, at time: Date) -> String {
        let all = handlerMetadata.merging(event.metadata ?? [:]) { $1 }
        var parts = [
            "msal:", Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(time),
            event.level.rawValue, event.message.description,
        ]
        parts += all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if let error = event.error { parts.append("error=\(error)") }
        return parts.joined(separator: " ")
    }
}
