import Foundation
import Hummingbird
import WebText

extension WebAppAuthentication {
    /// The name of the form field that carries the session's anti-forgery token.
    public static var antiForgeryField: String { "csrf_token" }

    /// The hidden field that carries the session's anti-forgery token, for a form of the app's own that changes
    /// something (HTML, the value escaped); `nil` when nobody is signed in.
    public func antiForgeryInput(_ context: Context) -> String? {
        guard let token = context.sessions.session?.antiForgeryToken else { return nil }
        return #"<input type="hidden" name="\#(Self.antiForgeryField)" value="\#(HTMLText.escape(token))">"#
    }

    /// The fields of a form posted from one of the app's own pages, which carries the session's anti-forgery token
    /// (``antiForgeryInput(_:)``): a page on another site cannot read the token, so it cannot post such a form.
    ///
    /// - Returns: the form's fields; `nil` when nobody is signed in.
    /// - Throws: `HTTPError` 403 when the form lacks the session's token; the caller then changes nothing.
    public func postedForm(_ request: Request, _ context: Context) async throws -> [String: String]? {
        guard let session = context.sessions.session else { return nil }
        let form = (try? await Self.form(request, context)) ?? [:]
        guard let expected = session.antiForgeryToken, let sent = form[Self.antiForgeryField],
            Self.sameToken(sent, expected)
        else {
            throw HTTPError(
                .forbidden,
                message: "This form did not come from the app's own page, so nothing changed; go back and try again.")
        }
        return form
    }

    /// Compares in time that depends on the lengths only, not on where the values differ.
    private static func sameToken(_ sent: String, _ expected: String) -> Bool {
        let sent = Array(sent.utf8)
        let expected = Array(expected.utf8)
        guard sent.count == expected.count else { return false }
        return zip(sent, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
