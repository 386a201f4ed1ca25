import Foundation
import HTTPTypes

extension IdentityPlatformClient {
    /// Posts a grant to the token endpoint.
    ///
    /// - Parameter authentication: the confidential client's credential fields (``ClientAuthenticator``),
    ///   appended to the grant's form; none for a public client.
    /// A request the identity platform refused with `Retry-After`, or a refresh it refused, is not sent again for a
    /// while: it fails at once with the same error, `throttled` and the time left in `retryAfter` (``TokenThrottle``).
    ///
    /// - Throws: ``MSALError`` for OAuth errors (with `error`, `suberror`, `error_codes`), invalid
    ///   responses, throttling and transport failures.
    func token(
        _ request: some TokenRequest, endpoint: URL, correlationID: UUID, authentication: [(String, String)] = []
    ) async throws -> TokenResponse {
        let key = TokenThrottle.key(endpoint: endpoint, form: request.form)
        do {
            try throttle.check(key, now: clock.now())
        } catch {
            logger.warning(
                "token request throttled locally; not sent",
                metadata: ["grant_type": "\(request.grantType)", "correlation_id": "\(correlationID)"])
            throw error
        }
        let (response, body) = try await post(
            request.form + authentication, to: endpoint, correlationID: correlationID)
        guard response.status == .ok else {
            let failure = error(response, body, correlationID: correlationID, endpoint: endpoint)
            if let seconds = throttle.record(key, failure, grantType: request.grantType, now: clock.now()) {
                logger.warning(
                    "the identity platform refused a token request; the same request waits before it is sent again",
                    metadata: ["grant_type": "\(request.grantType)", "seconds": "\(Int(seconds))"])
            }
            throw failure
        }
        return try TokenResponse(json: body)
    }

    /// Starts a device code sign-in. An OAuth error is looked for in every answer, 200 included, as
    /// MSAL.NET does.
    func deviceAuthorization(_ request: DeviceAuthorizationRequest, endpoint: URL, correlationID: UUID)
        async throws -> DeviceCodeInfo
    {
        let (response, body) = try await post(request.form, to: endpoint, correlationID: correlationID)
        guard response.status == .ok else {
            throw error(response, body, correlationID: correlationID, endpoint: endpoint)
        }
        if let error = OAuthErrorResponse(json: body) {
            throw error.msalError(httpStatus: response.status.code, correlationID: correlationID)
        }
        return try DeviceCodeInfo(json: body)
    }

    /// Sends a native-auth step to the authority. A 4xx OAuth error is an answer (its ``NativeAuthAnswer/failure``),
    /// since native auth turns most of them into results.
    ///
    /// - Throws: ``MSALError`` for transport failures, 5xx and 429 answers, and bodies that are not JSON.
    func nativeAuth(_ request: NativeAuthRequest, authority: URL, correlationID: UUID) async throws
        -> NativeAuthAnswer
    {
        let endpoint = authority.appendingPathComponent(request.path)
        let (response, body) = try await post(request.form, to: endpoint, correlationID: correlationID)
        let isOAuthError =
            (400..<500).contains(response.status.code) && response.status != .tooManyRequests
            && OAuthErrorResponse(json: body) != nil
        guard response.status == .ok || isOAuthError else {
            throw error(response, body, correlationID: correlationID, endpoint: endpoint)
        }
        return try NativeAuthAnswer(response, body: body)
    }

    /// The error for an answer that is not a success: the OAuth error it carries, throttling, a server
    /// failure, or a body that is none of these (an HTML page from a proxy).
    private func error(_ response: HTTPResponse, _ body: Data, correlationID: UUID, endpoint: URL) -> MSALError {
        let status = response.status.code
        let error: MSALError
        if let oauth = OAuthErrorResponse(json: body) {
            error = oauth.msalError(httpStatus: status, correlationID: correlationID)
        } else if status == 429 {
            error = MSALError(
                .serverError, internalCode: .throttled, "The identity platform is throttling requests (HTTP 429).")
        } else if status >= 500 {
            error = MSALError(
                .serverError, internalCode: .unhandledResponse,
                "The identity platform failed (HTTP \(status)).")
        } else {
            let kind =
                response.headerFields[values: .contentType].first?.contains("html") == true
                ? "an HTML page" : "a body that is not an OAuth error"
            error = .internal(
                .unexpectedHTTPResponse,
                "\(endpoint.host ?? "The server") answered HTTP \(status) with \(kind).")
        }
        return error.with(
            internalCode: status == 429 ? .throttled : nil, httpStatus: status,
            correlationID: error.correlationID ?? correlationID, retryAfter: retryAfter(response))
    }
}
