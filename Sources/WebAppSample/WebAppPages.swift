import Foundation
import MSAL
import SampleServers

/// The sample's pages, whatever web framework serves them: home (signed in or not) and the Graph profile, with
/// tokens acquired silently for the signed-in user; the to-dos are ``TodoPages``.
struct WebAppPages: Sendable {
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

    /// The to-do pages.
    var todos: TodoPages { TodoPages(configuration: configuration) }

    /// `GET /`: who is signed in, with links to the pages and the sign-out button; or a sign-in link.
    func home(_ session: some SignedInSession) async throws -> HTMLPage {
        var page = HTMLPage("Home")
        if let user = try await session.account() {
            page.paragraph("Signed in as \(user.username ?? user.identifier)", id: "user")
            page.link("Your profile", to: "/profile", id: "profile")
            page.link("Your to-dos", to: "/todos", id: "todos")
            if let signOut = session.signOutForm() { page.markup(signOut) }
        } else {
            page.paragraph("You are not signed in.", id: "anonymous")
            page.paragraph(
                "Sign in with the identity provider to see your Microsoft Graph profile and your to-dos.",
                class: "muted")
            page.link("Sign in", to: "\(session.signInBasePath)/signin?returnTo=/", id: "signin")
        }
        return page
    }

    /// `GET /profile`: the signed-in user's Graph profile.
    func profile(_ session: some SignedInSession) async throws -> HTMLPage {
        let token = try await Self.token(session, ["User.Read"])
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
        return page
    }

    /// A token for `scopes` for the signed-in user; a new sign-in when there is none or the platform wants one.
    ///
    /// - Throws: the framework's sign-in redirect; ``SampleFailure`` 502 when the identity provider cannot give one.
    static func token(_ session: some SignedInSession, _ scopes: [String]) async throws -> AuthenticationResult {
        do {
            return try await session.token(scopes: scopes)
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
