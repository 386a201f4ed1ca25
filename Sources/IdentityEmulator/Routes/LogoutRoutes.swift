import Foundation
import Hummingbird

/// `/{tenant}/oauth2/v2.0/logout` (GET and POST): ends the SSO session, then redirects to a
/// registered `post_logout_redirect_uri` with `state`, or shows a signed-out page.
struct LogoutRoutes: Sendable {
    let core: EmulatorCore

    func register(on router: Router<EmulatorRequestContext>) {
        router.get(":tenant/oauth2/v2.0/logout") { request, _ in
            await logout(request, params: HTTPExchange.query(request))
        }
        router.post(":tenant/oauth2/v2.0/logout") { request, context in
            let form = try await HTTPExchange.form(request, context: context)
            var params = HTTPExchange.query(request).fields
            params.merge(form.fields) { _, body in body }
            return await logout(request, params: FormBody(params))
        }
    }

    /// The app asking: `client_id`, or the audience of a valid `id_token_hint`.
    private func clientID(_ params: FormBody) -> String? {
        if let id = params.nonEmpty("client_id") { return id }
        guard let hint = params.nonEmpty("id_token_hint"), let claims = try? core.keys.verify(hint) else {
            return nil
        }
        return claims["aud"]?.stringValue
    }

    func logout(_ request: Request, params: FormBody) async -> Response {
        await core.state.endSession(HTTPExchange.cookie(SignInFlow.sessionCookie, in: request))
        let expire = "\(SignInFlow.sessionCookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
        if let target = params.nonEmpty("post_logout_redirect_uri"), let clientID = clientID(params) {
            let index = core.state.index
            if let app = index.application(clientID: clientID), RedirectURI.isRegistered(target, in: app.redirectUris) {
                let location =
                    params.nonEmpty("state").map {
                        RedirectURI.appending([("state", $0)], to: target, inFragment: false)
                    }
                    ?? RedirectURI.withPath(target)
                var headers = HTTPFields()
                headers[.setCookie] = expire
                return HTTPExchange.redirect(to: location, headers: headers)
            }
        }
        var headers = HTTPFields()
        headers[.setCookie] = expire
        return HTTPExchange.html(
            SignInPages.message(
                title: "You signed out of your account",
                text:
                    "It's a good idea to close all browser windows."), headers: headers)
    }
}
