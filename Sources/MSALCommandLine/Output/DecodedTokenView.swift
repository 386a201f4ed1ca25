import Foundation
import MSAL
import TokenGlossary

/// `msal decode` and `msal token --decode`: a token's header and claims, each standard one explained
/// (``ClaimGlossary``) and its times shown in local time too, as jwt.ms shows them. Nothing is sent anywhere and the
/// signature is not checked: only the API the token is for can check it.
enum DecodedTokenView {
    /// Prints `token` decoded: as ``text(_:now:)``, or with `json` as ``json(_:)``.
    ///
    /// - Throws: ``CommandFailure`` when `token` is not a JWT.
    static func print(_ token: String, json: Bool, on console: Console) throws {
        let decoded = try decode(token)
        if json {
            try JSONOutput.print(Self.json(decoded), on: console)
        } else {
            console.out(text(decoded))
        }
    }

    /// The header and claims of `token` (surrounding whitespace ignored).
    ///
    /// - Throws: ``CommandFailure`` when `token` is not a JWT (the message never quotes it).
    static func decode(_ token: String) throws -> JWT {
        do {
            return try JWT(token.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw CommandFailure(
                "This is not a JWT: expected three base64url parts (header.payload.signature), the first two JSON "
                    + "objects. Some tokens are opaque (Microsoft account users' tokens for Microsoft Graph): only "
                    + "their audience can read them.")
        }
    }

    /// `{"header": {…}, "claims": {…}}`, for `--json`.
    static func json(_ token: JWT) -> [String: Any] {
        ["header": token.header, "claims": token.claims]
    }

    /// Two tables, the header's and the claims' (name, value, meaning), then when the token expires or expired.
    static func text(_ token: JWT, now: Date = Date()) -> String {
        var text = "Header\n" + table(token.header, header: true) + "\n\nClaims\n" + table(token.claims, header: false)
        if let expiry = token.claims["exp"] as? Int {
            let when = LocalTime.readable(expiry)
            text +=
                "\n\n"
                + (TimeInterval(expiry) > now.timeIntervalSince1970 ? "Valid until \(when)." : "Expired at \(when).")
        }
        return text + "\nThe signature was not checked: only the API the token is for can check it."
    }

    private static func table(_ members: [String: any Sendable], header: Bool) -> String {
        let glossary = header ? ClaimGlossary.header : ClaimGlossary.claims
        let rows = ClaimGlossary.ordered(members.keys, header: header).map { name in
            let value = members[name]
            var shown = (value as? String) ?? compactJSON(value)
            if ClaimGlossary.times.contains(name), let seconds = value as? Int {
                shown += " (\(LocalTime.readable(seconds)))"
            }
            return [name, shown, glossary[name] ?? ClaimGlossary.unknown]
        }
        return TextTable.render(rows, header: ["Name", "Value", "Meaning"])
    }

    /// A claim's value as one line of JSON: numbers, booleans, arrays and objects.
    private static func compactJSON(_ value: (any Sendable)?) -> String {
        guard let value,
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
