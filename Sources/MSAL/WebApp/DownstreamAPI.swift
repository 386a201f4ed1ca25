import Foundation
import HTTPTypes

/// A downstream API a web API calls on behalf of the user whose token it received: the on-behalf-of token (cached
/// per incoming token by the confidential client) attached to each request.
///
///     let graph = DownstreamAPI(app: api1, baseURL: URL(string: "https://graph.microsoft.com/v1.0/")!,
///                               scopes: ["User.Read"])
///     let profile = try await graph.call(.get, "me", for: validatedToken)   // the token the API received
///
/// Paths are relative to ``baseURL``: one with a scheme or a host of its own (`https://evil.example/x`,
/// `//evil.example/x`) is refused, so the token goes only to the base URL's scheme, host and port.
///
/// When the identity platform wants the user to consent or satisfy a policy (`interactionRequired`), the call throws
/// a ``BearerChallenge`` the handler can let through: 401 `insufficient_claims` with the platform's claims when it
/// sent some (the client asks for a new token with them), else 403 `consent_required` naming the scopes.
public struct DownstreamAPI: Sendable {
    /// The web API's own confidential client.
    public let app: ConfidentialClientApplication
    /// Where the downstream API's paths start.
    public let baseURL: URL
    /// The downstream API's scopes to ask for.
    public let scopes: [String]
    /// How requests are sent.
    public let transport: any HTTPTransport

    /// A downstream API at `baseURL` that needs tokens for `scopes`, called through `transport` (by default the
    /// app's own, the one its token requests go through).
    public init(
        app: ConfidentialClientApplication, baseURL: URL, scopes: [String], transport: (any HTTPTransport)? = nil
    ) {
        self.app = app
        self.baseURL = baseURL
        self.scopes = scopes
        self.transport = transport ?? app.configuration.transport
    }

    /// Sends a request to `path` (relative to ``baseURL``) as the user of `token`: an `HTTPRequest` with the
    /// `Authorization` field, and `Content-Type: application/json` when there is a body.
    ///
    /// - Returns: the downstream API's response, whatever its status, and its body.
    /// - Throws: ``MSALError`` `invalidParameter` when `path` names a scheme or host of its own (the token goes only
    ///   to ``baseURL``'s scheme, host and port), before any token is asked for; ``BearerChallenge`` when the user
    ///   must consent or satisfy a policy; ``MSALError`` for the identity platform's other errors and transport
    ///   failures.
    public func call(
        _ method: HTTPRequest.Method, _ path: String, body: Data? = nil, for token: ValidatedAccessToken
    ) async throws -> (HTTPResponse, Data) {
        guard let url = url(for: path) else {
            throw MSALError.internal(
                .invalidParameter, "A downstream API path must be relative to its base URL, without a scheme or host.")
        }
        let result = try await Self.token(app: app, scopes: scopes, onBehalfOf: token)
        var headerFields: HTTPFields = [.authorization: "Bearer \(result.accessToken)"]
        if body != nil { headerFields[.contentType] = "application/json" }
        return try await transport.send(HTTPRequest(method: method, url: url, headerFields: headerFields), body: body)
    }

    /// `app`'s token for `scopes` on behalf of the caller of `token` (cached per incoming token).
    ///
    /// - Throws: ``BearerChallenge`` for the caller when the user must consent (403 `consent_required`) or satisfy a
    ///   policy (401 `insufficient_claims` with the platform's claims); ``MSALError`` otherwise.
    package static func token(
        app: ConfidentialClientApplication, scopes: [String], onBehalfOf token: ValidatedAccessToken
    ) async throws -> AuthenticationResult {
        do {
            return try await app.acquireTokenOnBehalfOf(
                OnBehalfOfParameters(userAssertion: token.rawValue, scopes: scopes))
        } catch let error as MSALError where error.code == .interactionRequired {
            if let claims = error.claimsChallenge {
                throw BearerChallenge.claims(claims, clientID: app.configuration.clientID)
            }
            throw BearerChallenge.consentRequired(scopes)
        }
    }

    /// `path` resolved against ``baseURL``; `nil` when it has a scheme (`https://…`, `https:…`) or an authority
    /// (`//host/…`), or would resolve to another scheme, host or port than ``baseURL``'s.
    package func url(for path: String) -> URL? {
        if path.hasPrefix("//") { return nil }
        if let components = URLComponents(string: path), components.scheme != nil || components.host != nil {
            return nil
        }
        let url = URL(string: path, relativeTo: baseURL)?.absoluteURL ?? baseURL.appendingPathComponent(path)
        guard url.scheme?.lowercased() == baseURL.scheme?.lowercased(),
            url.host?.lowercased() == baseURL.host?.lowercased(), Self.port(url) == Self.port(baseURL)
        else { return nil }
        return url
    }

    /// The URL's port, or its scheme's default.
    private static func port(_ url: URL) -> Int? {
        url.port ?? ["https": 443, "http": 80][url.scheme?.lowercased() ?? ""]
    }
}
