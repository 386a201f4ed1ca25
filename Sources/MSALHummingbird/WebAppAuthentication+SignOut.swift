import Foundation
import Hummingbird
import MSAL

extension WebAppAuthentication {
    /// The sign-out button for a page: a form that `POST`s to the sign-out route with the session's anti-forgery
    /// token (HTML, every value escaped; the button's id is `signout`), or `nil` when nobody is signed in.
    public func signOutForm(_ context: Context, label: String = "Sign out") -> String? {
        context.sessions.session?.antiForgeryToken.map { core.signOutForm(token: $0, label: label) }
    }

    /// `GET /signout`: a page with the sign-out button, which signs nobody out by itself; home when nobody is
    /// signed in.
    func signOutPage(_ context: Context) -> Response {
        guard let form = signOutForm(context) else { return .redirect(to: "/", type: .normal) }
        var headers = HTTPFields()
        for (name, value) in WebSignIn.signOutPageHeaders {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: WebSignIn.signOutPage(form: form))))
    }

    /// `POST /signout`: with the session's anti-forgery token, clears the session, forgets the user's tokens and
    /// sends the browser to the platform's sign-out page; without it, 403 and nothing changes.
    func signOut(_ request: Request, _ context: Context) async throws -> Response {
        guard let session = context.sessions.session, try await postedForm(request, context) != nil else {
            return .redirect(to: "/", type: .normal)
        }
        // First: whatever fails below, this browser is signed out of the app.
        context.sessions.clearSession()
        guard let origin = try? origin(request) else { return .redirect(to: "/", type: .normal) }
        let location = await core.signOut(accountID: session.accountID, origin: origin, logger: context.logger)
        return .redirect(to: location, type: .normal)
    }
}
