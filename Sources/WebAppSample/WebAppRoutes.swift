import Foundation
import Hummingbird
import MSAL
import MSALHummingbird
import SampleServers

/// The sample's pages: home (signed in or not), the Graph profile and API 1's to-dos (listed, added, deleted), with
/// tokens acquired silently for the signed-in user, and the stylesheet they share.
struct WebAppRoutes {
    let auth: WebAppAuthentication<WebContext>
    let configuration: WebAppSampleConfiguration

    /// The routes, as the banner lists them.
    static let banner = [
        SampleBanner.Route("GET", "/", "home: who is signed in, and links to the pages below"),
        SampleBanner.Route("GET", "/profile", "your Microsoft Graph profile"),
        SampleBanner.Route("GET", "/todos", "your to-dos, from API 1 (todo-api)"),
        SampleBanner.Route("POST", "/todos", "add a to-do (the form on /todos)"),
        SampleBanner.Route("POST", "/todos/{id}/delete", "delete a to-do (its button on /todos)"),
        SampleBanner.Route("GET", "/auth/signin", "sign in, then back to ?returnTo="),
        SampleBanner.Route("GET|POST", "/auth/redirect", "where the identity provider sends the browser back"),
        SampleBanner.Route("POST", "/auth/signout", "sign out (the button on the home page)"),
        SampleBanner.Route("GET", Stylesheet.path, "the pages' stylesheet"),
    ]

    func add(to router: Router<WebContext>) {
        auth.addRoutes(to: router)
        router.get("/") { _, context in try await home(context) }
        router.get(RouterPath(stringLiteral: Stylesheet.path)) { _, _ in Stylesheet.response }
        router.get("profile") { request, context in try await profile(request, context) }
        TodoPages(auth: auth, configuration: configuration).add(to: router)
    }

    private func home(_ context: WebContext) async throws -> Response {
        var page = HTMLPage("Home")
        if let user = try await auth.user(context) {
            page.paragraph("Signed in as \(user.username ?? user.identifier)", id: "user")
            page.link("Your profile", to: "/profile", id: "profile")
            page.link("Your to-dos", to: "/todos", id: "todos")
            if let signOut = auth.signOutForm(context) { page.markup(signOut) }
        } else {
            page.paragraph("You are not signed in.", id: "anonymous")
            page.paragraph(
                "Sign in with the identity provider to see your Microsoft Graph profile and your to-dos.",
                class: "muted")
            page.link("Sign in", to: "\(auth.basePath)/signin?returnTo=/", id: "signin")
        }
        return page.response()
    }

    private func profile(_ request: Request, _ context: WebContext) async throws -> Response {
        let token = try await Self.token(auth, ["User.Read"], request, context)
        let graph = ServiceCall(
            name: "Microsoft Graph",
            whenUnreachable: "Check that it (or identity-emulator, which serves it) is running.",
            transport: configuration.client.transport)
        let body = try await graph.send(.get, configuration.graphBaseURL.appendingPathComponent("me"), token: token)
        let me = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        var page = HTMLPage("Your profile")
        page.paragraph(me["displayName"] as? String ?? "", id: "displayName")
        page.paragraph((me["mail"] ?? me["userPrincipalName"]) as? String ?? "", id: "mail")
        page.link("Home", to: "/", id: "home")
        return page.response()
    }

    /// A token for `scopes` for the signed-in user; a new sign-in when there is none or the platform wants one.
    ///
    /// - Throws: `SignInRedirect`; ``SampleFailure`` 502 when the identity provider cannot give one.
    static func token(
        _ auth: WebAppAuthentication<WebContext>, _ scopes: [String], _ request: Request, _ context: WebContext
    ) async throws -> AuthenticationResult {
        do {
            return try await auth.token(scopes: scopes, request: request, context: context)
        } catch let error as MSALError {
            throw SampleFailure(
                .badGateway, "token_unavailable",
                message:
                    "The app could not get a token for you from the identity provider (\(error.code)). Check that it "
                    + "is running, then reload the page.",
                cause: "token for \(scopes.joined(separator: " ")): \(error)")
        }
    }
}
