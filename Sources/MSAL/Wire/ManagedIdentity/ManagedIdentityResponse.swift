import Foundation
import HTTPTypes
import OutsideJSON

/// A managed identity token as its source returned it.
struct ManagedIdentityToken: Sendable {
    let accessToken: String
    /// Seconds until the token expires.
    let expiresIn: TimeInterval
    /// Seconds until it should be renewed, when the source said so.
    let refreshIn: TimeInterval?
}

/// Reads the sources' answers: the token with its expiry (a number or a string; relative, epoch seconds, or
/// ISO-8601, as the sources differ), and each source's error shape.
enum ManagedIdentityResponse {
    /// `expires_on` values below this (2001-01-01) are a lifetime in seconds, not a time (MSAL.NET's rule).
    private static let earliestEpoch: TimeInterval = 978_307_200

    /// The token of a 200 answer, `response` with `data` as its body.
    ///
    /// - Throws: ``MSALError`` `invalidResponse` when the body is not a token response.
    static func token(_ response: HTTPResponse, _ data: Data, from source: ManagedIdentitySource, now: Date) throws
        -> ManagedIdentityToken
    {
        guard let body = object(data) else {
            throw invalid(source, "its answer is not JSON (\(describe(response, data)))")
        }
        guard let accessToken = body["access_token"] as? String, !accessToken.isEmpty else {
            throw invalid(source, "its answer has no access_token")
        }
        if let type = body["token_type"] as? String, !type.equalsIgnoringCase("Bearer") {
            throw invalid(source, "its token is of type '\(type)', not Bearer")
        }
        let expiresIn: TimeInterval
        if let seconds = number(body["expires_in"]) {
            expiresIn = seconds
        } else if let expiresOn = body["expires_on"], let seconds = secondsUntil(expiresOn, now: now) {
            expiresIn = seconds
        } else {
            throw invalid(source, "its answer has neither expires_in nor a readable expires_on")
        }
        guard expiresIn.isFinite else { throw invalid(source, "its token's lifetime is not a finite number") }
        guard expiresIn > 0 else { throw invalid(source, "its token has already expired") }
        return ManagedIdentityToken(
            accessToken: accessToken, expiresIn: min(expiresIn, TimeInterval(ServerSeconds.maximum)),
            refreshIn: number(body["refresh_in"]).flatMap(ServerSeconds.clamped).map(TimeInterval.init))
    }

    /// The error of a non-200 answer, with the message and code of whichever shape the source uses: OAuth's
    /// `error`/`error_description` (IMDS, Arc), App Service's `statusCode`/`message`, or the nested
    /// `error.code`/`error.message` of Service Fabric and Cloud Shell.
    static func error(_ response: HTTPResponse, _ data: Data, from source: ManagedIdentitySource, now: Date)
        -> MSALError
    {
        let body = object(data)
        let nested = body?["error"] as? [String: Any]
        let code = body?["error"] as? String ?? nested?["code"] as? String
        let detail =
            body?["error_description"] as? String ?? body?["message"] as? String ?? nested?["message"] as? String
        let correlation =
            body?["correlationId"] as? String ?? body?["correlation_id"] as? String
            ?? nested?["correlationId"] as? String
        var message = "\(source)'s managed identity endpoint answered HTTP \(response.status.code)"
        if let code { message += " \(code)" }
        if let detail { message += ": \(detail.trimmingCharacters(in: .whitespacesAndNewlines))" }
        if body == nil { message += " (\(describe(response, data)))" }
        if let correlation { message += " (correlation id \(correlation))" }
        let reason: MSALError.InternalCode?
        switch (response.status.code, code?.lowercased()) {
        case (_, "invalid_resource"?), (_, "invalid_scope"?), (_, "audiencenotsupported"?),
            (_, "argumentnullorempty"?):
            reason = .invalidScope
        case (401, _), (403, _), (_, "unauthorized_client"?), (_, "secretheadernotfound"?):
            reason = .unauthorizedClient
        case (429, _): reason = .throttled
        case (500..., _): reason = nil
        default: reason = .invalidRequest
        }
        return MSALError(
            reason.map(MSALError.Code.init) ?? .serverError, message, oauthError: code,
            stsErrorCodes: body?["error_codes"] as? [Int] ?? [], httpStatus: response.status.code,
            retryAfter: RetryAfter.seconds(in: response, now: now))
    }

    private static func secondsUntil(_ value: Any, now: Date) -> TimeInterval? {
        if let number = number(value) {
            return number < earliestEpoch ? number : number - now.timeIntervalSince1970
        }
        guard let text = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
        return date.map { $0.timeIntervalSince(now) }
    }

    /// A number sent as a JSON number or as a string of digits.
    private static func number(_ value: Any?) -> TimeInterval? {
        if let string = value as? String { return TimeInterval(string.trimmingCharacters(in: .whitespaces)) }
        if let number = value as? NSNumber, !(value is Bool) { return number.doubleValue }
        return nil
    }

    private static func object(_ data: Data) -> [String: Any]? {
        try? JSONLimits.message.object(data)
    }

    private static func describe(_ response: HTTPResponse, _ data: Data) -> String {
        let type = response.headerFields[values: .contentType].first ?? "no content type"
        return "HTTP \(response.status.code), \(type), \(data.count) bytes"
    }

    private static func invalid(_ source: ManagedIdentitySource, _ what: String) -> MSALError {
        MSALError.internal(.invalidResponse, "\(source)'s managed identity endpoint cannot be used: \(what).")
    }
}
