import Foundation
import HTTPTypes

/// The `Retry-After` header: a number of seconds (decimals allowed, as Graph sends) or an HTTP date.
enum RetryAfter {
    /// The wait `response`'s `Retry-After` asks for, in seconds, or `nil` when it has none or an unreadable one.
    static func seconds(in response: HTTPResponse, now: Date) -> TimeInterval? {
        response.headerFields[values: .retryAfter].first.flatMap { seconds($0, now: now) }
    }

    /// The wait in seconds (at most ``ServerSeconds/maximum``), or `nil` when the value is neither form or not
    /// finite.
    static func seconds(_ value: String, now: Date) -> TimeInterval? {
        if let seconds = Double(value.trimmingCharacters(in: .whitespaces)) {
            guard seconds.isFinite else { return nil }
            return min(max(0, seconds), TimeInterval(ServerSeconds.maximum))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map {
            min(max(0, $0.timeIntervalSince(now)), TimeInterval(ServerSeconds.maximum))
        }
    }
}
