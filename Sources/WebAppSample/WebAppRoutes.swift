import Foundation
import Hummingbird
import MSAL
import MSALHummingbird

/// The sample's pages: home (signed in or not), the Graph profile and API 1's to-dos, both with tokens acquired
/// silently for the signed-in user.
struct WebAppRoutes {
    let auth: WebAppAuthentication<WebContext>
    let configuration: WebAppSampleConfiguration

    func add(to router: Router<WebContext>) {
        auth.addRoutes(to: router)
        router.get("/") { _, context in try await home(context) }
        router.get("profile") { request, context in try await profile(request, context) }
        router.get("todos") { request, context in try await todos(request, context) }
    }

    private func home(_ context: WebContext) async throws -> Response {
        var page = HTMLPage("webapp-sample")
        if let user = try await auth.user(context) {
            page.paragraph("Signed in as \(user.username ?? user.identifier)", id: "user")
            page.link("Your profile", to: "/profile", id: "profile")
            page.link("Your to-dos", to: "/todos", id: "todos")
            if let signOut = auth.signOutForm(context) { page.markup(signOut) }
        } else {
            page.paragraph("You are not signed in.", id: "anonymous")
            page.link("Sign in", to: "\(auth.basePath)/signin?returnTo=/", id: "signin")
        }
        return page.response
    }

    private func profile(_ request: Request, _ context: WebContext) async throws -> Response {
        let token = try await auth.token(scopes: ["User.Read"], request: request, context: context)
        let me = try await get(configuration.graphBaseURL.appendingPathComponent("me"), token: token)
        var page = HTMLPage("Your profile")
        page.paragraph(me["displayName"] as? String ?? "", id: "displayName")
        page.paragraph((me["mail"] ?? me["userPrincipalName"]) as? String ?? "", id: "mail")
        page.link("Home", to: "/", id: "home")
        return page.response
    }

    private func todos(_ request: Request, _ context: WebContext) async throws -> Response {
        let token = try await auth.token(scopes: [configuration.todoScope], request: request, context: context)
        let list = try await get(configuration.todoListURL, token: token)
        let items = (list["todos"] as? [[String: Any]] ?? []).map { $0["description"] as? String ?? "" }
        var page = HTMLPage("Your to-dos")
        page.list(items, id: "todo-list")
        page.paragraph("\(items.count) to-do\(items.count == 1 ? "" : "s")", id: "count")
        page.link("Home", to: "/", id: "home")
        return page.response
    }

    private func get(_ url: URL, token: AuthenticationResult) async throws -> [String: Any] {
        let (response, body) = try await configuration.client.transport.send(
            HTTPRequest(method: .get, url: url, headerFields: [.authorization: "Bearer \(token.accessToken)"]),
            body: nil)
        guard response.status == .ok,
            let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        else {
            throw HTTPError(.badGateway, message: "\(url.host ?? "The API") answered HTTP \(response.status.code).")
        }
        return json
    }
}
