import Logging

/// The library's logger: constant messages, data in metadata, personal data only when the app
/// turned PII logging on. Tokens, codes and passwords are never passed to it.
struct PrivacyLogger: Sendable {
    let logger: Logger
    let piiEnabled: Bool

    // The metadata is built only when the level is on: the silent path logs on every call.

    func info(
        _ message: Logger.Message, _ metadata: @autoclosure () -> [String: String] = [:],
        pii: @autoclosure () -> [String: String] = [:]
    ) {
        log(.info, message, metadata, pii)
    }

    func debug(
        _ message: Logger.Message, _ metadata: @autoclosure () -> [String: String] = [:],
        pii: @autoclosure () -> [String: String] = [:]
    ) {
        log(.debug, message, metadata, pii)
    }

    func warning(
        _ message: Logger.Message, _ metadata: @autoclosure () -> [String: String] = [:],
        pii: @autoclosure () -> [String: String] = [:]
    ) {
        log(.warning, message, metadata, pii)
    }

    private func log(
        _ level: Logger.Level, _ message: Logger.Message, _ metadata: () -> [String: String],
        _ pii: () -> [String: String]
    ) {
        guard logger.logLevel <= level else { return }
        logger.log(level: level, message, metadata: combine(metadata(), pii()))
    }

    private func combine(_ metadata: [String: String], _ pii: [String: String]) -> Logger.Metadata {
        var out = metadata.mapValues { Logger.MetadataValue.string($0) }
        for (key, value) in pii { out[key] = .string(piiEnabled ? value : "(pii)") }
        return out
    }
}
