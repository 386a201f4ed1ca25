import Foundation
import OutsideJSON

/// A compact JWS split into its parts, decoded but not yet verified (`msal decode` shows one).
package struct JWT: Sendable {
    package let header: [String: any Sendable]
    package let claims: [String: any Sendable]
    let signingInput: String
    let signature: Data

    /// - Throws: ``MSALError`` `invalidIDToken` when the token is not three base64url JSON parts, or is larger than
    ///   ``JSONLimits/message`` allows (its JSON nests at most ``JSONLimits/maximumDepth`` levels: ``CacheJSONReader``).
    package init(_ token: String) throws {
        do {
            try JSONLimits.message.checkSize(token.utf8.count)
        } catch {
            throw MSALError.internal(.invalidIDToken, "The JWT \(error).", underlyingError: error)
        }
        // Split on the bytes: splitting the string walks it character by character, which costs more than decoding.
        let bytes = token.utf8
        let dot = UInt8(ascii: ".")
        guard let first = bytes.firstIndex(of: dot),
            let second = bytes[bytes.index(after: first)...].firstIndex(of: dot),
            !bytes[bytes.index(after: second)...].contains(dot),
            let headerData = Base64URL.decode(bytes: bytes[..<first]), let header = Self.object(headerData),
            let claimsData = Base64URL.decode(bytes: bytes[bytes.index(after: first)..<second]),
            let claims = Self.object(claimsData),
            let signature = Base64URL.decode(bytes: bytes[bytes.index(after: second)...])
        else { throw MSALError.internal(.invalidIDToken, "The ID token is not a well-formed JWT.") }
        self.header = header
        self.claims = claims
        signingInput = String(Substring(bytes[..<second]))
        self.signature = signature
    }

    func string(_ claim: String) -> String? { claims[claim] as? String }

    /// A NumericDate claim (`exp`, `nbf`, `iat`) in seconds since 1970.
    func numericDate(_ claim: String) -> TimeInterval? { Self.numericDate(claims[claim]) }

    /// A NumericDate value in seconds since 1970: a JSON number (RFC 7519 §2); `nil` when absent, not a number or not
    /// finite.
    static func numericDate(_ value: (any Sendable)?) -> TimeInterval? {
        switch value {
        case let seconds as Int: TimeInterval(seconds)
        case let seconds as Double where seconds.isFinite: seconds
        default: nil
        }
    }

    /// `aud` as a list (a string or an array of strings).
    var audiences: [String] {
        if let one = claims["aud"] as? String { return [one] }
        return (claims["aud"] as? [any Sendable])?.compactMap { $0 as? String } ?? []
    }

    /// A JSON object's members: strings, booleans, integers (whole numbers within `Int`'s range, else doubles),
    /// arrays and objects; `null` is left out. Read with the cache's JSON reader, which throws nothing for a
    /// well-formed token (Foundation's decoder would throw, and catch, a type mismatch for each try of a claim's type).
    private static func object(_ data: Data) -> [String: any Sendable]? {
        data.withUnsafeBytes { bytes in
            var reader = CacheJSONReader(bytes)
            guard reader.nextIsObject(), case .object(let members)? = try? reader.value(), (try? reader.finish()) != nil
            else { return nil }
            return members.compactMapValues(sendable)
        }
    }

    private static func sendable(_ value: CacheValue) -> (any Sendable)? {
        switch value {
        case .string(let string): string
        case .bool(let bool): bool
        case .number(let number): number.rounded() == number && abs(number) < 9e18 ? Int(number) : number
        case .null: nil
        case .array(let items): items.compactMap(sendable)
        case .object(let members): members.compactMapValues(sendable)
        }
    }
}
