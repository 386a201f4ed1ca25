import Crypto
import Foundation
import Locking

/// Client-side throttling of token requests, as MSAL does it: a request the identity platform asked to wait for
/// (429 or 5xx with `Retry-After`) fails locally until then, and a silent refresh it answered `invalid_grant` or
/// `interaction_required` fails locally for ``uiRequiredInterval``. "The same request" is the same endpoint and form,
/// the client's credential left out; a refresh with another refresh token (after a new sign-in) is another request.
final class TokenThrottle: Sendable {
    /// How long a refresh the identity platform refused is not sent again (MSAL.NET's 120 s).
    static let uiRequiredInterval: TimeInterval = 120
    /// The longest `Retry-After` honoured (an hour, as MSAL.NET caps it).
    static let maximumRetryAfter: TimeInterval = 3600
    /// Requests remembered at most; the oldest go first.
    static let capacity = 1000

    private struct Entry {
        let until: Date
        let error: MSALError
    }

    /// By key, a digest in hexadecimal: keyed by `SHA256Digest`, the dictionary would cost a conformance search
    /// whenever an app is made (see "Start-up" in the library's README).
    private let entries = Locked([String: Entry]())

    /// The key of a request: the digest of its endpoint and form, without the credential and `client_info`.
    static func key(endpoint: URL, form: [(String, String)]) -> String {
        let ignored: Set<String> = ["client_secret", "client_assertion", "client_assertion_type", "client_info"]
        var text = endpoint.absoluteString
        for (name, value) in form.filter({ !ignored.contains($0.0) }).sorted(by: { $0.0 < $1.0 }) {
            text += "\n\(name)=\(value)"
        }
        return SHA256.hex(of: Data(text.utf8))
    }

    /// Throws the error a throttled request gets, without sending it, while its entry lasts.
    func check(_ key: String, now: Date) throws {
        guard let entry = entries.withLock({ $0[key] }), entry.until > now else { return }
        let remaining = entry.until.timeIntervalSince(now)
        throw entry.error.with(
            internalCode: .throttled,
            message: "Not sent (throttled locally for \(Int(remaining.rounded(.up))) more s): \(entry.error.message)",
            retryAfter: remaining)
    }

    /// Remembers a refused request when the refusal throttles it: `Retry-After` on a 429 or 5xx, or a refused
    /// refresh token.
    ///
    /// - Returns: how long the request is throttled, or `nil` when it is not.
    @discardableResult
    func record(_ key: String, _ error: MSALError, grantType: String, now: Date) -> TimeInterval? {
        let status = error.httpStatus ?? 0
        let interval: TimeInterval
        if status == 429 || status >= 500, let retryAfter = error.retryAfter, retryAfter > 0 {
            interval = min(retryAfter, Self.maximumRetryAfter)
        } else if grantType == "refresh_token",
            error.oauthError == "invalid_grant" || error.oauthError == "interaction_required"
        {
            interval = Self.uiRequiredInterval
        } else {
            return nil
        }
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { $0.value.until > now }
                if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.until < $1.value.until }) {
                    entries[oldest.key] = nil
                }
            }
            entries[key] = Entry(until: now.addingTimeInterval(interval), error: error)
        }
        return interval
    }
}
