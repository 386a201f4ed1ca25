import Foundation
import Hummingbird
import MSAL
import WebText

extension WebAppAuthentication {
    /// The name of the form field that carries the session's anti-forgery token.
    public static var antiForgeryField: String { AntiForgeryToken.field }

    /// The hidden field that carries the session's anti-forgery token, for a form of the app's own that changes
    /// something (HTML, the value escaped); `nil` when nobody is signed in.
    public func antiForgeryInput(_ context: Context) -> String? {
        context.sessions.session?.antiForgeryToken.map(AntiForgeryToken.input)
    }

    /// The fields of a form posted from one of the app's own pages, which carries the session's anti-forgery token
    /// (``antiForgeryInput(_:)``): a page on another site cannot read the token, so it cannot post such a form.
    ///
    /// - Returns: the form's fields; `nil` when nobody is signed in.
    /// - Throws: `HTTPError` 403 when the form lacks the session's token; the caller then changes nothing.
    public func postedForm(_ request: Request, _ context: Context) async throws -> [String: String]? {
        guard let session = context.sessions.session else { return nil }
        let form = (try? await Self.form(request, context)) ?? [:]
        guard AntiForgeryToken.isCarried(by: form, expected: session.antiForgeryToken) else {
            throw HTTPError(.forbidden, message: AntiForgeryToken.refusal)
        }
        return form
    }
}
