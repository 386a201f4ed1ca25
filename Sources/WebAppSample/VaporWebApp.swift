import MSAL
import MSALVapor
import SampleServers
import Vapor

/// The sample on Vapor: MSALVapor's `WebAppSignIn` signs users in, Vapor's sessions in memory.
package enum VaporWebApp {
    /// Sets up `app`: only the sample's own middleware (Vapor's sessions, then the error pages, in place of Vapor's
    /// default ErrorMiddleware), the sign-in routes and the pages.
    ///
    /// - Throws: ``MSALError`` when the web app's confidential client cannot be made.
    package static func configure(_ app: Application, _ configuration: WebAppSampleConfiguration) throws {
        let client = try ConfidentialClientApplication(configuration: configuration.client)
        app.middleware = Middlewares()
        app.sessions.use(.memory)
        try app.msal.use(WebAppSignIn(app: client, scopes: ["User.Read"], responseMode: configuration.responseMode))
        app.middleware.use(ExplainedVaporErrors(render: ErrorPage.render))
        let pages = WebAppPages(configuration: configuration)
        let routes = app.grouped(WebAppUser.sessionAuthenticator())
        routes.get { request in response(try await pages.home(VaporSession(request: request))) }
        routes.get(PathComponent(stringLiteral: String(Stylesheet.path.dropFirst()))) { _ in
            response(Stylesheet.css, headers: Stylesheet.headers)
        }
        routes.get("profile") { request in response(try await pages.profile(VaporSession(request: request))) }
        routes.get("todos") { request in response(try await pages.todos.list(VaporSession(request: request))) }
        routes.post("todos") { request in
            request.redirect(to: try await pages.todos.create(VaporSession(request: request)), redirectType: .normal)
        }
        routes.post("todos", ":id", "delete") { request in
            request.redirect(
                to: try await pages.todos.delete(VaporSession(request: request), id: request.parameters.get("id")),
                redirectType: .normal)
        }
    }

    private static func response(_ page: HTMLPage) -> Response {
        response(page.html, headers: HTMLPage.headers)
    }

    private static func response(_ text: String, headers: [(String, String)]) -> Response {
        Response(status: .ok, headers: HTTPHeaders(headers), body: .init(string: text))
    }
}

/// MSALVapor's sign-in, for one request.
struct VaporSession: SignedInSession {
    let request: Request

    var signInBasePath: String { request.application.msal.signIn?.core.basePath ?? "/auth" }

    func account() async throws -> Account? { request.auth.get(WebAppUser.self)?.account }

    func token(scopes: [String]) async throws -> AuthenticationResult {
        try await request.msal.userToken(scopes: scopes)
    }

    func antiForgeryInput() -> String? { request.msal.antiForgeryInput() }

    func signOutForm() -> String? { request.msal.signOutForm() }

    func postedForm() async throws -> [String: String]? { try await request.msal.postedForm() }

    func redirect(to location: String) -> any Error { Abort(.found, headers: ["Location": location]) }
}
