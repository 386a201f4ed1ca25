import Foundation
import OutsideJSON

/// A successful token-endpoint answer (RFC 6749 §5.1 plus Microsoft's fields).
struct TokenResponse: Sendable, Equatable {
    var tokenType: String
    var scope: String?
    var expiresIn: Int
    var extExpiresIn: Int?
    var refreshIn: Int?
    var accessToken: String
    var refreshToken: String?
    var idToken: String?
    var clientInfo: String?
    var foci: String?

    /// Decodes the body; numbers may come as strings (AAD v1-like endpoints).
    ///
    /// - Throws: ``MSALError`` `invalidResponse` when it is not a JSON object within ``JSONLimits/message``, lacks
    ///   `access_token`, or the `token_type` is missing or not `Bearer`.
    init(json data: Data) throws {
        let object = try JSONLimits.message.object(data) { "The token response \($0)." }
        guard let accessToken = object["access_token"] as? String, !accessToken.isEmpty else {
            throw MSALError.internal(.invalidResponse, "The token response has no access_token.")
        }
        guard let tokenType = object["token_type"] as? String else {
            throw MSALError.internal(.invalidResponse, "The token response has no token_type.")
        }
        guard tokenType.equalsIgnoringCase("Bearer") else {
            throw MSALError.internal(
                .invalidResponse, "The token response has token_type '\(tokenType)', expected Bearer.")
        }
        guard let expiresIn = Self.int(object["expires_in"]) else {
            throw MSALError.internal(.invalidResponse, "The token response has no usable expires_in.")
        }
        self.tokenType = tokenType
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        scope = object["scope"] as? String
        extExpiresIn = Self.int(object["ext_expires_in"])
        refreshIn = Self.int(object["refresh_in"])
        refreshToken = object["refresh_token"] as? String
        idToken = object["id_token"] as? String
        clientInfo = object["client_info"] as? String
        foci = object["foci"] as? String
    }

    private static func int(_ value: Any?) -> Int? { ServerSeconds.of(value) }
}

/// `client_info`: the user's home object id and tenant, the parts of the home account id.
struct ClientInfo: Sendable, Equatable {
    let uid: String
    let utid: String

    var homeAccountID: String { "\(uid).\(utid)" }

    /// - Throws: ``MSALError`` `invalidResponse` when it is not base64url JSON with `uid`.
    init(encoded: String) throws {
        guard let data = Base64URL.decode(encoded),
            let object = try? JSONLimits.message.object(data), let uid = object["uid"] as? String, !uid.isEmpty
        else { throw MSALError.internal(.invalidResponse, "The client_info in the token response cannot be decoded.") }
        self.uid = uid
        self.utid = (object["utid"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? uid
    }
}
