import Hummingbird
import HummingbirdAuth
import Logging
import MSAL
import MSALHummingbird
import SampleServers
import ServiceLifecycle

/// The sample on Hummingbird: MSALHummingbird's `WebAppAuthentication` signs users in, its sessions in memory.
enum HummingbirdWebApp {
    /// The session storage (whose service tidies expired sessions) and the application.
    ///
    /// - Throws: ``MSALError`` when the web app's confidential client cannot be made.
    static func services(
        _ configuration: WebAppSampleConfiguration, logger: Logger, bound: @escaping @Sendable (Int) -> Void
    ) throws -> [any Service] {
        let client = try ConfidentialClientApplication(configuration: configuration.client)
        let storage = MemoryPersistDriver()
        let auth = WebAppAuthentication<WebContext>(
            app: client, scopes: ["User.Read"], sessionStorage: storage, responseMode: configuration.responseMode)
        let router = Router(context: WebContext.self)
        router.add(middleware: auth.sessionMiddleware)
        router.add(middleware: ExplainedErrorMiddleware<WebContext>(render: ErrorPage.render))
        auth.addRoutes(to: router)
        addPages(WebAppPages(configuration: configuration), auth: auth, to: router)
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in bound(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        return [storage, app]
    }

    private static func addPages(
        _ pages: WebAppPages, auth: WebAppAuthentication<WebContext>, to router: Router<WebContext>
    ) {
        @Sendable func session(_ request: Request, _ context: WebContext) -> HummingbirdSession {
            HummingbirdSession(auth: auth, request: request, context: context)
        }
        router.get("/") { request, context in response(try await pages.home(session(request, context))) }
        router.get(RouterPath(stringLiteral: Stylesheet.path)) { _, _ in
            response(Stylesheet.css, headers: Stylesheet.headers)
        }
        router.get("profile") { request, context in response(try await pages.profile(session(request, context))) }
        router.get("todos") { request, context in response(try await pages.todos.list(session(request, context))) }
        router.post("todos") { request, context in
            Response.redirect(to: try await pages.todos.create(session(request, context)), type: .normal)
        }
        router.post("todos/:id/delete") { request, context in
            Response.redirect(
                to: try await pages.todos.delete(session(request, context), id: context.parameters.get("id")),
                type: .normal)
        }
    }

    private static func response(_ page: HTMLPage) -> Response {
        response(page.html, headers: HTMLPage.headers)
    }

    private static func response(_ text: String, headers: [(String, String)]) -> Response {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

/// MSALHummingbird's sign-in, for one request.
struct HummingbirdSession: SignedInSession {
    let auth: WebAppAuthentication<WebContext>
    let request: Request
    let context: WebContext

    var signInBasePath: String { auth.basePath }

    func account() async throws -> Account? { try await auth.user(context) }

    func token(scopes: [String]) async throws -> AuthenticationResult {
        try await auth.token(scopes: scopes, request: request, context: context)
    }

    func antiForgeryInput() -> String? { auth.antiForgeryInput(context) }

    func signOutForm() -> String? { auth.signOutForm(context) }

    func postedForm() async throws -> [String: String]? { try await auth.postedForm(request, context) }

    func redirect(to location: String) -> any Error { SignInRedirect(location) }
}
