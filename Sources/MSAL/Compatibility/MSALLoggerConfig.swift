import Foundation
import Locking
import Logging

/// How much the library logs (MSAL's `MSALLogLevel`).
public enum MSALLogLevel: Int, Sendable, Comparable {
    /// Logs nothing.
    case nothing = 0
    /// Errors only.
    case error
    /// Errors and warnings.
    case warning
    /// Errors, warnings and informational messages (the default).
    case info
    /// Everything, debug and trace messages too.
    case verbose

    /// Orders the levels from ``nothing`` to ``verbose``.
    public static func < (a: MSALLogLevel, b: MSALLogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// What the logs may contain (MSAL's `MSALLogMaskingLevel`). Tokens, codes and passwords are never logged.
public enum MSALLogMaskingLevel: Int, Sendable {
    /// No personal data (the default).
    case settingsMaskAllPII = 1
    /// Usernames and other personal data included.
    case settingsMaskEUIIOnly
    /// As `settingsMaskEUIIOnly`: secrets are never logged anyway.
    case settingsMaskSecretsOnly
}

/// Receives log lines: the level, the message with its metadata, and whether personal data may be in it.
public typealias MSALLogCallback = @Sendable (_ level: MSALLogLevel, _ message: String?, _ containsPII: Bool) -> Void

/// The process-wide logging settings (MSAL's `MSALLoggerConfig`). Level and callback apply at once to
/// every app; the masking level is read when an app is made.
public final class MSALLoggerConfig: Sendable {
    private struct State {
        var level = MSALLogLevel.info
        var masking = MSALLogMaskingLevel.settingsMaskAllPII
        var callback: MSALLogCallback?
    }

    private let state = Locked(State())

    init() {}

    /// `.info` by default.
    public var logLevel: MSALLogLevel {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = newValue } }
    }

    /// `.settingsMaskAllPII` by default.
    public var logMaskingLevel: MSALLogMaskingLevel {
        get { state.withLock { $0.masking } }
        set { state.withLock { $0.masking = newValue } }
    }

    /// Sets where log lines go; nothing is logged until it is set. MSAL for iOS/macOS allows one call
    /// per process; here a later call replaces the callback.
    public func setLogCallback(_ callback: @escaping MSALLogCallback) {
        state.withLock { $0.callback = callback }
    }

    /// A swift-log logger that forwards to the callback, for the core configuration.
    func logger() -> Logger {
        Logger(label: "MSAL") { _ in CallbackLogHandler(config: self) }
    }

    fileprivate func emit(_ level: MSALLogLevel, _ message: String) {
        let (threshold, masking, callback) = state.withLock { ($0.level, $0.masking, $0.callback) }
        guard level != .nothing, level <= threshold, let callback else { return }
        callback(level, message, masking != .settingsMaskAllPII)
    }

    fileprivate var swiftLogLevel: Logger.Level {
        switch logLevel {
        case .nothing, .error: .error
        case .warning: .warning
        case .info: .info
        case .verbose: .trace
        }
    }
}

/// The library's settings that apply to the whole process (MSAL's `MSALGlobalConfig`).
public enum MSALGlobalConfig {
    /// Log level, masking and callback.
    public static let loggerConfig = MSALLoggerConfig()
}

/// Formats swift-log records as `message key=value …` for the callback.
private struct CallbackLogHandler: LogHandler {
    let config: MSALLoggerConfig
    var metadata: Logger.Metadata = [:]

    var logLevel: Logger.Level {
        get { config.swiftLogLevel }
        set {}  // The level is MSALGlobalConfig.loggerConfig.logLevel.
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let text = ([event.message.description] + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            .joined(separator: " ")
        let mapped: MSALLogLevel =
            switch event.level {
            case .trace, .debug: .verbose
            case .info, .notice: .info
            case .warning: .warning
            case .error, .critical: .error
            }
        config.emit(mapped, text)
    }
}
