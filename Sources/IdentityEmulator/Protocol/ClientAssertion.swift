import Crypto
import Foundation
import _CryptoExtras

/// A client assertion (a compact JWS), decoded but not yet trusted.
///
/// Decoding is as lenient as the SDKs of `server-side.md` §1.2 need: segments and thumbprints in
/// base64url or standard base64, with or without padding; NumericDates as integers, fractions or numeric
/// strings; `aud` as a string or an array.
struct ClientAssertion: Sendable {
    /// The signature algorithms accepted (`PS256` is what current SDKs send, `RS256` the older form).
    static let algorithms: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]

    let raw: String
    let header: JSONValue
    let claims: JSONValue
    private let signingInput: [UInt8]
    private let signature: [UInt8]

    /// - Throws: ``EntraError/malformedAssertion`` unless it is three segments of JSON objects.
    init(_ raw: String) throws(EntraError) {
        let parts = raw.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.object(parts[0]), let claims = Self.object(parts[1]),
            let signature = Self.decode(parts[2])
        else { throw .malformedAssertion }
        self.raw = raw
        self.header = header
        self.claims = claims
        signingInput = Array(raw.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }

    var algorithm: String { header["alg"]?.stringValue ?? "none" }

    /// A string claim; `nil` when absent, empty or not a string.
    func string(_ name: String) -> String? {
        guard let value = claims[name]?.stringValue, !value.isEmpty else { return nil }
        return value
    }

    /// A NumericDate claim: an integer, a fraction, or a numeric string (MSAL.NET sends strings).
    func date(_ name: String) -> Date? {
        let seconds: Double? =
            switch claims[name] {
            case .int(let i)?: Double(i)
            case .double(let d)?: d
            case .string(let s)?: Double(s.trimmingCharacters(in: .whitespaces))
            default: nil
            }
        return seconds.map(Date.init(timeIntervalSince1970:))
    }

    /// `aud` as a list: one string, or an array of strings.
    var audiences: [String] {
        switch claims["aud"] {
        case .string(let s)?: s.isEmpty ? [] : [s]
        case .array(let items)?: items.compactMap(\.stringValue)
        default: []
        }
    }

    /// A header thumbprint (`x5t`, `x5t#S256`) as bytes, whatever base64 flavour it was written in.
    func thumbprint(_ name: String) -> [UInt8]? {
        header[name]?.stringValue.flatMap { Self.decode(Substring($0)) }
    }

    /// The header's `kid`, when it is a non-empty string.
    var keyID: String? {
        guard let kid = header["kid"]?.stringValue, !kid.isEmpty else { return nil }
        return kid
    }

    /// True when the signature verifies under `key` with the header's algorithm.
    func verifies(with key: _RSA.Signing.PublicKey) -> Bool {
        let alg = algorithm
        let padding: _RSA.Signing.Padding = alg.hasPrefix("PS") ? .PSS : .insecurePKCS1v1_5
        let signature = _RSA.Signing.RSASignature(rawRepresentation: signature)
        return switch alg.dropFirst(2) {
        case "256": key.isValidSignature(signature, for: SHA256.hash(data: signingInput), padding: padding)
        case "384": key.isValidSignature(signature, for: SHA384.hash(data: signingInput), padding: padding)
        case "512": key.isValidSignature(signature, for: SHA512.hash(data: signingInput), padding: padding)
        default: false
        }
    }

    /// Checks `nbf` (optional, `skew` seconds of tolerance) and `exp` (required) against `now`.
    ///
    /// - Throws: ``EntraError/assertionTimeRange(now:notBefore:expires:)`` (AADSTS700024).
    func checkTimeRange(now: Date, skew: TimeInterval) throws(EntraError) -> Date {
        let (notBefore, expires) = (date("nbf"), date("exp"))
        guard let expires, expires > now, (notBefore ?? .distantPast) <= now.addingTimeInterval(skew) else {
            throw .assertionTimeRange(now: now, notBefore: notBefore, expires: expires)
        }
        return expires
    }

    /// SHA-256 of the whole assertion: the same assertion presented again has the same digest.
    var digest: String { Base64URL.encode(SHA256.hash(data: Data(raw.utf8))) }

    /// A segment that decodes to a JSON object.
    private static func object(_ segment: Substring) -> JSONValue? {
        guard let bytes = decode(segment), let value = try? JSONValue.parse(Data(bytes)), case .object = value else {
            return nil
        }
        return value
    }

    /// Decodes base64url or standard base64, padded or not.
    static func decode(_ text: Substring) -> [UInt8]? {
        var normalized = String(text)
        while normalized.hasSuffix("=") { normalized.removeLast() }
        normalized = normalized.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return Base64URL.decode(normalized).map(Array.init)
    }

    /// Upper-case hex, as ESTS prints thumbprints.
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }
}
