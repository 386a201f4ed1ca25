import Foundation

/// A number of seconds a server sent (`expires_in`, `refresh_in`, `interval`, `Retry-After`), read so that no value
/// can trap a conversion later: a JSON number or a numeric string, finite, clamped to 0…``maximum``.
enum ServerSeconds {
    /// Ten years: longer than any lifetime or wait the identity platform gives.
    static let maximum = 315_360_000

    /// The whole seconds in `value` (a number or a string), or `nil` when it is neither, or not finite.
    static func of(_ value: Any?) -> Int? {
        let seconds: Double? =
            switch value {
            case let number as NSNumber: number.doubleValue
            case let text as String: Double(text.trimmingCharacters(in: .whitespaces))
            default: nil
            }
        return seconds.flatMap(clamped)
    }

    /// `seconds` rounded down and clamped to 0…``maximum``; `nil` when it is not finite.
    static func clamped(_ seconds: Double) -> Int? {
        guard seconds.isFinite else { return nil }
        return Int(min(max(seconds, 0), Double(maximum)))
    }
}
