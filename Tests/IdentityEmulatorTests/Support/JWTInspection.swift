import Crypto
import Foundation
import _CryptoExtras

/// Decodes JWTs and verifies RS256 signatures against a JWKS, independently of the emulator's code.
enum JWTInspection {
    static func base64URLDecode(_ s: Substring) -> Data? {
        var text = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    static func header(_ token: String) throws -> [String: any Sendable] { try part(token, 0) }

    static func claims(_ token: String) throws -> [String: any Sendable] { try part(token, 1) }

    private static func part(_ token: String, _ index: Int) throws -> [String: any Sendable] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = base64URLDecode(parts[index]),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw TestFailure("not a JWT: \(token.prefix(40))") }
        return object.mapValues { SendableJSON.wrap($0) }
    }

    /// True when the token's RS256 signature verifies with the JWKS key named by its `kid`.
    static func verifies(_ token: String, jwks: [String: any Sendable]) throws -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        let kid = try header(token)["kid"] as? String
        guard let keys = jwks["keys"] as? [any Sendable],
            let jwk = keys.compactMap({ $0 as? [String: any Sendable] }).first(where: { $0["kid"] as? String == kid }),
            let n = (jwk["n"] as? String).flatMap({ base64URLDecode(Substring($0)) }),
            let e = (jwk["e"] as? String).flatMap({ base64URLDecode(Substring($0)) }),
            let signature = base64URLDecode(parts[2])
        else { return false }
        let key = try _RSA.Signing.PublicKey(n: n, e: e)
        return key.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature),
            for: SHA256.hash(data: Data("\(parts[0]).\(parts[1])".utf8)), padding: .insecurePKCS1v1_5)
    }
}

/// The keys of a JSON object's top level, in the order they appear in the text.
func orderedTopLevelKeys(_ json: String) -> [String] {
    var keys: [String] = []
    var depth = 0
    var inString = false
    var escaped = false
    var current = ""
    var lastString: String?
    for c in json {
        if inString {
            if escaped {
                escaped = false
                current.append(c)
                continue
            }
            if c == "\\" {
                escaped = true
                continue
            }
            if c == "\"" {
                inString = false
                lastString = current
                continue
            }
            current.append(c)
            continue
        }
        switch c {
        case "\"":
            inString = true
            current = ""
        case "{", "[":
            depth += 1
            lastString = nil
        case "}", "]":
            depth -= 1
            lastString = nil
        case ":":
            if depth == 1, let key = lastString { keys.append(key) }
            lastString = nil
        case ",": lastString = nil
        default: break
        }
    }
    return keys
}
