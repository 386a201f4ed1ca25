import Foundation
import OutsideJSON

/// A `WWW-Authenticate: Bearer …, error="insufficient_claims", claims="<base64>"` challenge from a
/// resource (continuous access evaluation, conditional access).
struct ClaimsChallenge: Sendable, Equatable {
    /// The decoded claims request (JSON).
    let claims: String

    /// Parses the header's parameters by name (RFC 7235); `nil` unless it is an
    /// `insufficient_claims` challenge with decodable `claims`.
    init?(wwwAuthenticate header: String) {
        var parameters: [String: String] = [:]
        let pattern = #"([A-Za-z_]+)\s*=\s*"([^"]*)""#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        let ns = header as NSString
        for match in regex.matches(in: header, range: NSRange(location: 0, length: ns.length)) {
            let name = ns.substring(with: match.range(at: 1)).lowercased()
            if parameters[name] == nil { parameters[name] = ns.substring(with: match.range(at: 2)) }
        }
        guard parameters["error"] == "insufficient_claims", let encoded = parameters["claims"] else { return nil }
        let data = Data(base64Encoded: encoded) ?? Base64URL.decode(encoded)
        guard let data, let text = String(data: data, encoding: .utf8),
            (try? JSONLimits.message.object(data)) != nil
        else { return nil }
        claims = text
    }
}
