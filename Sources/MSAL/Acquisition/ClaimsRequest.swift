import Foundation
import OutsideJSON

/// Merges a claims request with the client's capabilities, as MSAL Go does:
/// `{"access_token":{"xms_cc":{"values":["cp1"]}}}` deep-merged into the request.
enum ClaimsRequest {
    /// - Returns: the JSON to send as `claims`, or `nil` when there is nothing to send.
    /// - Throws: ``MSALError`` `invalidParameter` when `claims` is not a JSON object.
    static func merged(_ claims: String?, capabilities: [String]) throws -> String? {
        var root: [String: Any] = [:]
        if let claims, !claims.isEmpty {
            guard let object = try? JSONLimits.message.object(Data(claims.utf8)) else {
                throw MSALError.internal(
                    .invalidParameter, "The claims request must be a JSON object (is it still base64?).")
            }
            root = object
        }
        if !capabilities.isEmpty {
            var accessToken = root["access_token"] as? [String: Any] ?? [:]
            accessToken["xms_cc"] = ["values": capabilities]
            root["access_token"] = accessToken
        }
        guard !root.isEmpty else { return nil }
        let data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
