import Foundation
import OutsideJSON

/// When a partition can be forgotten: when its last access token expires, or, when it holds a refresh
/// token, 90 days after it was last used (Entra's limit for an inactive refresh token).
enum PartitionExpiry {
    static let refreshTokenLifetime: TimeInterval = 90 * 24 * 3600

    /// The expiry of a partition's unified cache JSON; `now` for bytes without tokens.
    static func of(_ data: Data, now: Date) -> Date {
        guard let object = try? JSONLimits.file.object(data) else { return now }
        var latest = now
        for case let entry as [String: Any] in ((object["AccessToken"] as? [String: Any]) ?? [:]).values {
            if let seconds = seconds(entry["expires_on"]) { latest = max(latest, Date(timeIntervalSince1970: seconds)) }
        }
        if let refresh = object["RefreshToken"] as? [String: Any], !refresh.isEmpty {
            latest = max(latest, now.addingTimeInterval(refreshTokenLifetime))
        }
        return latest
    }

    private static func seconds(_ value: Any?) -> TimeInterval? {
        switch value {
        case let text as String: TimeInterval(text)
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }
}
