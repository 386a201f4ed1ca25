import WebText

/// The token a web app's own forms that change something carry (sign-out, the app's own): a random value made at
/// sign-in and kept in the server-side session. A page on another site cannot read it, so it cannot make the browser
/// post such a form. The web framework integrations keep it in their sessions and check the forms with it.
package enum AntiForgeryToken {
    /// The name of the form field that carries it.
    package static let field = "csrf_token"

    /// What a form without the session's token is answered (403): nothing changed.
    package static let refusal =
        "This form did not come from the app's own page, so nothing changed; go back and try again."

    /// A new token: 32 bytes from the system's secure generator, base64url.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The hidden field that carries `token` in a form (HTML, the value escaped).
    package static func input(_ token: String) -> String {
        #"<input type="hidden" name="\#(field)" value="\#(HTMLText.escape(token))">"#
    }

    /// Whether a posted form's fields carry the session's token `expected`; `false` when it has none.
    package static func isCarried(by form: [String: String], expected: String?) -> Bool {
        guard let expected, let sent = form[field] else { return false }
        return same(sent, expected)
    }

    /// Compares in time that depends on the lengths only, not on where the values differ.
    private static func same(_ sent: String, _ expected: String) -> Bool {
        let sent = Array(sent.utf8)
        let expected = Array(expected.utf8)
        guard sent.count == expected.count else { return false }
        return zip(sent, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
