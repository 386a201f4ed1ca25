import Foundation

/// The token a web page's own forms that change something carry: a random value the server keeps (a web app's, made
/// at sign-in and kept in its server-side session; the emulator's dashboard's, made once per emulator). A page on
/// another site cannot read it, so it cannot make the browser post such a form. The web framework integrations and
/// the emulator's dashboard check their forms with it.
package enum AntiForgeryToken {
    /// The name of the form field that carries it.
    package static let field = "csrf_token"

    /// What a form without the session's token is answered (403): nothing changed.
    package static let refusal =
        "This form did not come from the app's own page, so nothing changed; go back and try again."

    /// A new token: 32 bytes from the system's secure generator, base64url without padding.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return String(
            Data(bytes).base64EncodedString().compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": nil
                default: character
                }
            })
    }

    /// The hidden field that carries `token` in a form (HTML, the value escaped).
    package static func input(_ token: String) -> String {
        #"<input type="hidden" name="\#(field)" value="\#(HTMLText.escape(token))">"#
    }

    /// Whether a posted form's fields carry the token `expected`; `false` when there is none.
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
