import Foundation
import Hummingbird
import MSAL
import WebText

extension WebAppAuthentication {
    /// The sign-out button for a page: a form that `POST`s to the sign-out route with the session's anti-forgery
    /// token (HTML, every value escaped; the button's id is `signout`), or `nil` when nobody is signed in.
    public func signOutForm(_ context: Context, label: String = "Sign out") -> String? {
        guard let token = antiForgeryInput(context) else { return nil }
        return """
            <form method="post" action="\(HTMLText.escape(basePath + "/signout"))">\
            \(token)\
            <button type="submit" id="signout">\(HTMLText.escape(label))</button></form>
            """
    }

    /// `GET /signout`: a page with the sign-out button, which signs nobody out by itself; home when nobody is
    /// signed in.
    func signOutPage(_ context: Context) -> Response {
        guard let form = signOutForm(context) else { return .redirect(to: "/", type: .normal) }
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><title>Sign out</title></head>
            <body><h1>Sign out</h1>\(form)</body></html>
            """
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                // Another site cannot frame the button and trick a click on it.
                .contentSecurityPolicy: "frame-ancestors 'none'",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// `POST /signout`: with the session's anti-forgery token, clears the session, forgets the user's tokens and
    /// sends the browser to the platform's sign-out page; without it, 403 and nothing changes.
    func signOut(_ request: Request, _ context: Context) async throws -> Response {
        guard let session = context.sessions.session, try await postedForm(request, context) != nil else {
            return .redirect(to: "/", type: .normal)
        }
        // First: whatever fails below, this browser is signed out of the app.
        context.sessions.clearSession()
        do {
            let endSession = try await app.signOut(
                accountIdentifier: session.accountID, postLogoutRedirectURI: try origin(request) + "/")
            return .redirect(to: endSession?.absoluteString ?? "/", type: .normal)
        } catch {
            context.logger.warning(
                "sign-out did not reach the identity platform or the token cache",
                metadata: ["code": "\((error as? MSALError).map { "\($0.code)" } ?? "\(type(of: error))")"])
            return .redirect(to: "/", type: .normal)
        }
    }
}
