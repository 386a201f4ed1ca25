import Foundation

/// The emulator's notion of "now": a base clock plus an adjustable offset (`/_emulator/clock`).
public struct EmulatorClock: Sendable {
    private let base: @Sendable () -> Date

    /// - Parameter base: the underlying time source; the system clock by default.
    public init(base: @escaping @Sendable () -> Date = { Date() }) { self.base = base }

    func now(offset: TimeInterval) -> Date { base().addingTimeInterval(offset) }
}

extension Date {
    /// Whole seconds since 1970, as JWT `iat`/`exp` carry them.
    var epochSeconds: Int { Int(timeIntervalSince1970) }

    /// `2021-10-29 17:16:31Z`, the ESTS error timestamp format.
    var estsTimestamp: String { utcParts(dateSeparator: " ") + "Z" }

    /// `2021-10-29T17:16:30`, Graph's `innerError.date` format.
    var graphTimestamp: String { utcParts(dateSeparator: "T") }

    private func utcParts(dateSeparator: String) -> String {
        var seconds = time_t(epochSeconds)
        var t = tm()
        gmtime_r(&seconds, &t)
        let date = String(format: "%04d-%02d-%02d", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday)
        return date + dateSeparator + String(format: "%02d:%02d:%02d", t.tm_hour, t.tm_min, t.tm_sec)
    }
}
