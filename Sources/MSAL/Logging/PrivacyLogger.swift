import Logging

/// The library's logger: constant messages, data in metadata, personal data only when the app
/// turned PII logging on. Tokens, codes and passwords are never passed to it.
struct PrivacyLogger: Sendable {
    let logger: Logger
    let piiEnabled: Bool

    func info(_ message: Logger.Message, _ metadata: [String: String] = [:], pii: [String: String] = [:]) {
        logger.info(message, metadata: combine(metadata, pii))
    }

    func debug(_ message: Logger.Message, _ metadata: [String: String] = [:], pii: [String: String] = [:]) {
        logger.debug(message, metadata: combine(metadata, pii))
    }

    func warning(_ message: Logger.Message, _ metadata: [String: String] = [:], pii: [String: String] = [:]) {
        logger.warning(message, metadata: combine(metadata, pii))
    }

    private func combine(_ metadata: [String: String], _ pii: [String: String]) -> Logger.Metadata {
        var out = metadata.mapValues { Logger.MetadataValue.string($0) }
        for (key, value) in pii { out[key] = .string(piiEnabled ? value : "(pii)") }
        return out
    }
}
