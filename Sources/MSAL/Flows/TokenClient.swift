import Foundation
import Logging

/// The token and device-code endpoints on the wire: builds requests with MSAL's headers, retries a
/// 5xx once, honours a short `Retry-After`, and turns answers into ``TokenResponse`` or ``MSALError``.
struct TokenClient: Sendable {
    static let sku = "MSAL.Swift"
    static let version = "0.1.0"
    /// The longest `Retry-After` waited for before retrying once; longer ones are reported.
    static let maximumRetryAfter: TimeInterval = 5

    let transport: any HTTPTransport
    /// Turns an HTTP-date `Retry-After` into seconds.
    let clock: any TimeSource
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger

    /// Posts a grant to the token endpoint.
    ///
    /// - Throws: ``MSALError`` for OAuth errors (with `error`, `suberror`, `error_codes`), invalid
    ///   responses, throttling and transport failures.
    func token(_ form: [(String, String)], endpoint: URL, correlationID: UUID) async throws -> TokenResponse {
        let response = try await post(form, to: endpoint, correlationID: correlationID)
        return try TokenResponse(json: response.body)
    }

    /// Posts to the device authorization endpoint.
    func deviceCode(_ form: [(String, String)], endpoint: URL, correlationID: UUID) async throws -> DeviceCodeInfo {
        let response = try await post(form, to: endpoint, correlationID: correlationID)
        if let error = OAuthErrorResponse(json: response.body) {
            throw error.msalError(httpStatus: response.status, correlationID: correlationID)
        }
        return try DeviceCodeInfo(json: response.body)
    }

    /// Sends and returns a 200 answer, or, with `returningOAuthErrors`, a 4xx whose body is an OAuth
    /// error (native auth turns those into results); everything else becomes an error.
    func post(
        _ form: [(String, String)], to endpoint: URL, correlationID: UUID,
        returningOAuthErrors: Bool = false
    ) async throws -> HTTPResponse {
        let request = HTTPRequest(
            method: .post, url: endpoint,
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"),
                ("Accept", "application/json"),
                ("client-request-id", correlationID.uuidString.lowercased()),
                ("return-client-request-id", "true"),
                ("x-client-SKU", Self.sku), ("x-client-Ver", Self.version), ("x-client-OS", "linux"),
                ("x-ms-lib-capability", "retry-after, h429"),
            ], body: Data(FormEncoding.encode(form).utf8))
        var attempt = 0
        while true {
            attempt += 1
            logger.debug("token endpoint request", metadata: ["endpoint": "\(endpoint.path)", "attempt": "\(attempt)"])
            let response = try await transport.send(request)
            if response.status == 200 { return response }
            if returningOAuthErrors, (400..<500).contains(response.status), response.status != 429,
                OAuthErrorResponse(json: response.body) != nil
            {
                return response
            }
            let retryAfter = response.header("Retry-After").flatMap { Self.retryAfterSeconds($0, now: clock.now()) }
            let retriable = response.status >= 500 || response.status == 429
            if retriable, attempt == 1 {
                if let retryAfter, retryAfter <= Self.maximumRetryAfter {
                    try await sleep(.milliseconds(Int(retryAfter * 1000)))
                    continue
                }
                if retryAfter == nil, response.status >= 500 {
                    try await sleep(.milliseconds(500))
                    continue
                }
            }
            throw Self.error(response, retryAfter: retryAfter, correlationID: correlationID, endpoint: endpoint)
        }
    }

    private static func error(_ response: HTTPResponse, retryAfter: TimeInterval?, correlationID: UUID, endpoint: URL)
        -> MSALError
    {
        var error: MSALError
        if let oauth = OAuthErrorResponse(json: response.body) {
            error = oauth.msalError(httpStatus: response.status, correlationID: correlationID)
            if response.status == 429 { error.internalCode = .throttled }
        } else if response.status == 429 {
            error = MSALError(
                .serverError, internalCode: .throttled, "The identity platform is throttling requests (HTTP 429).")
        } else if response.status >= 500 {
            error = MSALError(
                .serverError, internalCode: .unhandledResponse,
                "The identity platform failed (HTTP \(response.status)).")
        } else {
            let kind =
                response.header("Content-Type")?.contains("html") == true
                ? "an HTML page" : "a body that is not an OAuth error"
            error = .internal(
                .unexpectedHTTPResponse,
                "\(endpoint.host ?? "The server") answered HTTP \(response.status) with \(kind).")
        }
        error.httpStatus = response.status
        error.correlationID = error.correlationID ?? correlationID
        error.retryAfter = retryAfter
        return error
    }

    /// `Retry-After` as seconds: a number (decimals allowed) or an HTTP date.
    static func retryAfterSeconds(_ value: String, now: Date) -> TimeInterval? {
        if let seconds = Double(value.trimmingCharacters(in: .whitespaces)) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }
}
