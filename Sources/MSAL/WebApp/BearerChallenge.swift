import Foundation
import HTTPTypes

/// An RFC 6750 answer to a request a web API refuses: 401 with `WWW-Authenticate: Bearer …` for a missing or invalid
/// token (or a claims challenge), 403 with `error="insufficient_scope"` for a token that lacks the permission, 503
/// when the authority's keys cannot be fetched. The body is JSON with `error` and `error_description`; neither
/// quotes the token, and a refused token's description is a fixed sentence: nothing the caller sent (its `alg`…)
/// and nothing about this server (the authority's URLs, a proxy) reaches the client.
///
/// The web framework integrations (MSALHummingbird, MSALVapor) answer with it as it is: the same status, the same
/// `WWW-Authenticate`, the same body.
public struct BearerChallenge: Error, Sendable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// The `WWW-Authenticate` parameters, in order (`error`, `error_description`, `scope`, `claims`…).
    public let parameters: [(name: String, value: String)]

    /// A challenge with these parameters.
    public init(status: HTTPResponse.Status, parameters: [(name: String, value: String)]) {
        self.status = status
        self.parameters = parameters
    }

    /// No bearer token in the request (RFC 6750 §3.1: no error code).
    public static let missingToken = BearerChallenge(status: .unauthorized, parameters: [])

    /// The token was refused: `invalid_token`, or 503 when it could not be checked, described by the reason's
    /// fixed ``AccessTokenRejection/Reason-swift.enum/clientMessage`` (the rejection's message, which may name
    /// the authority's URLs, is for the log).
    public static func invalidToken(_ rejection: AccessTokenRejection) -> BearerChallenge {
        let description = rejection.reason.clientMessage
        if rejection.reason == .keysUnavailable {
            return BearerChallenge(
                status: .serviceUnavailable,
                parameters: [("error", "temporarily_unavailable"), ("error_description", description)])
        }
        return BearerChallenge(
            status: .unauthorized, parameters: [("error", "invalid_token"), ("error_description", description)])
    }

    /// The token lacks every permission the route accepts.
    ///
    /// - Parameter scope: the permissions that would do, space-separated.
    public static func insufficientScope(_ scope: String) -> BearerChallenge {
        BearerChallenge(
            status: .forbidden,
            parameters: [
                ("error", "insufficient_scope"),
                ("error_description", "The token has none of the permissions this route accepts."), ("scope", scope),
            ])
    }

    /// The user has not consented to what the API needs on their behalf (a downstream API's `scopes`).
    public static func consentRequired(_ scopes: [String]) -> BearerChallenge {
        BearerChallenge(
            status: .forbidden,
            parameters: [
                ("error", "consent_required"),
                ("error_description", "The user has not consented to what this API needs on their behalf."),
                ("scope", scopes.joined(separator: " ")),
            ])
    }

    /// A claims challenge (conditional access, continuous access evaluation): the client must get a new token
    /// with these claims. Entra's form: `error="insufficient_claims"` and the claims request in base64.
    ///
    /// - Parameters:
    ///   - claims: the claims request (JSON), as the identity platform gave it.
    ///   - clientID: the API's client id, for the client to name in its next request.
    ///   - authorizationURI: the authority's authorize endpoint.
    public static func claims(_ claims: String, clientID: String? = nil, authorizationURI: URL? = nil)
        -> BearerChallenge
    {
        var parameters: [(name: String, value: String)] = [("realm", "")]
        if let authorizationURI { parameters.append(("authorization_uri", authorizationURI.absoluteString)) }
        if let clientID { parameters.append(("client_id", clientID)) }
        parameters += [("error", "insufficient_claims"), ("claims", Data(claims.utf8).base64EncodedString())]
        return BearerChallenge(status: .unauthorized, parameters: parameters)
    }

    /// The `WWW-Authenticate` value: `Bearer` and the parameters, quoted.
    public var wwwAuthenticate: String {
        guard !parameters.isEmpty else { return "Bearer" }
        let quoted = parameters.map { name, value in
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\"")
            return "\(name)=\"\(escaped)\""
        }
        return "Bearer " + quoted.joined(separator: ", ")
    }

    /// The response's header fields: `WWW-Authenticate`, `Content-Type: application/json`, `Cache-Control: no-store`.
    public var headerFields: HTTPFields {
        [.wwwAuthenticate: wwwAuthenticate, .contentType: "application/json", .cacheControl: "no-store"]
    }

    /// The response's body: JSON with `error` (the challenge's, else `unauthorized` or `forbidden`) and
    /// `error_description` when the challenge has one, keys sorted.
    public var body: Data {
        var fields: [String: String] = [:]
        for (name, value) in parameters where name == "error" || name == "error_description" { fields[name] = value }
        if fields["error"] == nil { fields["error"] = status == .unauthorized ? "unauthorized" : "forbidden" }
        return (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
