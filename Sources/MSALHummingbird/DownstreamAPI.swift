import Foundation
import Hummingbird
import MSAL

/// A downstream API a web API calls on behalf of the user whose token it received: the on-behalf-of token (cached
/// per incoming token by the confidential client) attached to each request.
///
///     let graph = DownstreamAPI(app: api1, baseURL: URL(string: "https://graph.microsoft.com/v1.0/")!,
///                               scopes: ["User.Read"])
///     let profile = try await graph.call(.get, "me", for: context.requireAccessToken())
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

    /// A downstream API at `baseURL` that needs tokens for `scopes`.
    public init(
        app: ConfidentialClientApplication, baseURL: URL, scopes: [String], transport: any HTTPTransport
    ) {
        self.app = app
        self.baseURL = baseURL
        self.scopes = scopes
        self.transport = transport
    }

    /// Sends a request to `path` (relative to ``baseURL``) as the user of `token`.
    ///
    /// - Returns: the downstream API's response, whatever its status.
    /// - Throws: ``BearerChallenge`` when the user must consent or satisfy a policy; ``MSALError`` for the identity
    ///   platform's other errors and transport failures.
    public func call(
        _ method: MSAL.HTTPRequest.Method, _ path: String, body: Data? = nil, for token: ValidatedAccessToken
    ) async throws -> MSAL.HTTPResponse {
        let result: AuthenticationResult
        do {
            result = try await app.acquireTokenOnBehalfOf(userAssertion: token.rawValue, scopes: scopes)
        } catch let error as MSALError where error.code == .interactionRequired {
            if let claims = error.claimsChallenge {
                throw BearerChallenge.claims(claims, clientID: app.configuration.clientID)
            }
            throw BearerChallenge(
                status: .forbidden,
                parameters: [
                    ("error", "consent_required"),
                    ("error_description", "The user has not consented to what this API needs on their behalf."),
                    ("scope", scopes.joined(separator: " ")),
                ])
        }
        var headers: [(name: String, value: String)] = [("Authorization", "Bearer \(result.accessToken)")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let url = URL(string: path, relativeTo: baseURL)?.absoluteURL ?? baseURL.appendingPathComponent(path)
        return try await transport.send(MSAL.HTTPRequest(method: method, url: url, headers: headers, body: body))
    }
}
