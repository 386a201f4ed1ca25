import Foundation

/// A compact JWS split into its parts, decoded but not yet verified.
struct JWT: Sendable {
    let header: [String: any Sendable]
    let claims: [String: any Sendable]
    let signingInput: String
    let signature: Data

    /// - Throws: ``MSALError`` `invalidIDToken` when the token is not three base64url JSON parts.
    init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = Base64URL.decode(parts[0]), let header = Self.object(headerData),
            let claimsData = Base64URL.decode(parts[1]), let claims = Self.object(claimsData),
            let signature = Base64URL.decode(parts[2])
        else { throw MSALError.internal(.invalidIDToken, "The ID token is not a well-formed JWT.") }
        self.header = header
        self.claims = claims
        signingInput = "\(parts[0]).\(parts[1])"
        self.signature = signature
    }

    func string(_ claim: String) -> String? { claims[claim] as? String }

    func int(_ claim: String) -> Int? {
        switch claims[claim] {
        case let i as Int: i
        case let d as Double: d.isFinite && abs(d) < 1e18 ? Int(d) : nil  // `Int(1e300)` would trap
        case let s as String: Int(s)
        default: nil
        }
    }

    /// `aud` as a list (a string or an array of strings).
    var audiences: [String] {
        if let one = claims["aud"] as? String { return [one] }
        return (claims["aud"] as? [any Sendable])?.compactMap { $0 as? String } ?? []
    }

    private static func object(_ data: Data) -> [String: any Sendable]? {
        guard let object = try? JSONDecoder().decode([String: ClaimValue].self, from: data) else { return nil }
        return object.compactMapValues(\.value)
    }
}

/// A JSON value in a JWT's header or claims, decoded with Foundation's native `JSONDecoder` (much faster on Linux
/// than `JSONSerialization`, which builds `NSString`s and `NSNumber`s): strings, booleans, integers (else doubles),
/// arrays and objects; `null` is left out.
private struct ClaimValue: Decodable {
    let value: (any Sendable)?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let string = try? container.decode(String.self) {
            value = string
        } else if let bool = try? container.decode(Bool.self) {
            value = bool
        } else if let int = try? container.decode(Int.self) {
            value = int
        } else if let double = try? container.decode(Double.self) {
            value = double
        } else if let array = try? container.decode([ClaimValue].self) {
            value = array.compactMap(\.value)
        } else {
            value = try container.decode([String: ClaimValue].self).compactMapValues(\.value)
        }
    }
}
