import Foundation

/// What the dashboard's request log shows in place of every secret: passwords, client secrets, codes (authorization,
/// device, user, one-time), tokens (access, ID, refresh, continuation), assertions, PKCE verifiers, cookies and
/// `Authorization` headers. One rule for form fields, query parameters, headers and JSON members alike: a name that
/// says it holds a secret has its value masked, and so does any value shaped as a token (a JWT, or an opaque
/// `1.A…` code or refresh token), whatever its name.
enum SecretMasking {
    /// What a masked value is replaced with.
    static func mask(_ value: String) -> String { value.isEmpty ? "" : "•••• (\(value.count) characters)" }

    /// Parts of a name that mark its value secret (compared lowercased, `-` and `_` removed).
    private static let secretNameParts = [
        "password", "secret", "token", "code", "assertion", "verifier", "cookie", "authorization", "otp", "oob",
        "credential", "session", "flow", "hint", "message", "signature", "key", "nonce", "state",
    ]

    /// Names whose value is plain even though a part of the name sounds secret.
    private static let plainNames: Set<String> = [
        "tokentype", "granttype", "responsetype", "clientassertiontype", "codechallengemethod", "requestedtokenuse",
        "challengetype", "expiresin", "extexpiresin", "errorcodes", "keys",
    ]

    /// Whether a field, parameter, header or member named `name` holds a secret.
    static func isSecret(name: String) -> Bool {
        let folded = name.lowercased().filter { $0 != "-" && $0 != "_" }
        if plainNames.contains(folded) { return false }
        return secretNameParts.contains { folded.contains($0) }
    }

    /// Whether `value` looks like a token whatever it is called: three base64url segments (a JWT), or Entra's opaque
    /// `1.A…` codes and refresh tokens.
    static func looksLikeToken(_ value: String) -> Bool {
        if value.hasPrefix("1.A"), value.count > 24 { return true }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 5, parts[0].hasPrefix("eyJ") else { return false }
        return parts.dropLast().allSatisfy { part in
            part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
    }

    /// `value` as the log shows it under `name`.
    static func field(_ name: String, _ value: String) -> String {
        isSecret(name: name) || looksLikeToken(value) ? mask(value) : value
    }

    /// Name and value pairs (a form, a query, headers) with every secret masked.
    static func fields(_ pairs: [(String, String)]) -> [(String, String)] {
        pairs.map { ($0.0, field($0.0, $0.1)) }
    }

    /// A JSON document with every secret member masked, at any depth.
    static func json(_ value: JSONValue, name: String? = nil) -> JSONValue {
        switch value {
        case .string(let text):
            if let name, isSecret(name: name) { return .string(mask(text)) }
            return looksLikeToken(text) ? .string(mask(text)) : value
        case .array(let items):
            return .array(items.map { json($0, name: name) })
        case .object(let members):
            return .object(members.map { ($0.0, json($0.1, name: $0.0)) })
        default:
            if let name, isSecret(name: name) { return .string(mask(value.serialized)) }
            return value
        }
    }

    /// A URL (a redirect's `Location`) with every secret in its query and fragment masked.
    static func url(_ text: String) -> String {
        guard let mark = text.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return text }
        var out = String(text[..<mark])
        var rest = text[mark...]
        while let separator = rest.first {
            rest = rest.dropFirst()
            let end = rest.firstIndex(where: { $0 == "#" && separator == "?" }) ?? rest.endIndex
            let pairs = rest[..<end].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else { return String(pair) }
                let value = parts[1].removingPercentEncoding ?? String(parts[1])
                let shown = field(String(parts[0]), value)
                return shown == value ? String(pair) : "\(parts[0])=\(shown)"
            }
            out += String(separator) + pairs.joined(separator: "&")
            rest = rest[end...]
        }
        return out
    }
}
