import Foundation
import Hummingbird
import WebText

/// The dashboard at `/_emulator/`: server-rendered pages over the emulator's state, for loopback browsers only
/// (``DashboardGuard``). Its forms change the emulator through the functions the admin API calls
/// (``EmulatorState``, ``SigningKeyRing``, ``TokensOnDemand``, ``AdminRoutes``' checks), and answer with a redirect
/// to the page they came from, or that page again with what was wrong (400).
///
/// Pages: `/_emulator/` (tenants, applications), `ui/apps/{client id}` (connect your app), `ui/users` and
/// `ui/users/{object id}`, `ui/log` and `ui/log/{number}` (requests and answers, masked), `ui/outbox`,
/// `ui/inspector`, `ui/controls` (faults, clock, keys, reset).
struct Dashboard: Sendable {
    let core: EmulatorCore
    let frame: DashboardFrame
    /// The CA certificate file when the emulator serves TLS.
    let caFile: String?

    /// A dashboard with an anti-forgery token of its own, made now from the system's secure generator.
    init(core: EmulatorCore, caFile: String? = nil) {
        self.core = core
        frame = DashboardFrame(token: AntiForgeryToken.make())
        self.caFile = caFile
    }

    /// What a redirect's `done` names, shown on the page it leads to.
    static let notices: [String: String] = [
        "user-added": "The user was added.", "profile-saved": "The profile was saved.",
        "password-reset": "The password was reset, and the user's sessions and refresh tokens revoked.",
        "disabled": "The account was disabled, and its sessions and refresh tokens revoked.",
        "enabled": "The account was enabled.", "revoked": "The user's sessions and refresh tokens were revoked.",
        "mfa-saved": "The MFA requirement was saved.", "method-added": "The method was added.",
        "method-removed": "The method was removed.", "scenario-added": "The scenario was armed.",
        "scenarios-cleared": "Every scenario was cleared.", "clock-set": "The clock was set.",
        "keys-rotated": "A new signing key signs from now on; the previous one stays published.",
        "reset": "The emulator was reset.",
    ]

    func register(on router: Router<EmulatorRequestContext>) {
        let guarded = DashboardGuard(address: core.address, token: frame.token)
        router.group("_emulator").add(middleware: guarded).get { request, _ in
            let page = OverviewPage(
                frame: frame, index: core.state.index, origin: core.origin(of: request), caFile: caFile,
                secure: core.secure)
            return HTTPExchange.html(page.render(notice: Self.notice(request)))
        }
        let ui = router.group("_emulator/ui").add(middleware: guarded)
        ui.get("style.css") { _, _ in
            HTTPExchange.text(
                DashboardStyle.css, headers: [.cacheControl: "no-cache"], contentType: "text/css; charset=utf-8")
        }
        ui.get("live.js") { _, _ in
            HTTPExchange.text(
                RequestLogPage.liveScript, headers: [.cacheControl: "no-cache"],
                contentType: "text/javascript; charset=utf-8")
        }
        ui.get("apps/:client") { request, context in
            let index = core.state.index
            guard let app = index.application(clientID: context.parameters.get("client") ?? ""),
                let tenant = index.tenant(id: app.tenant)
            else { return notFound("No such application.") }
            let snippets = ConnectAppSnippets(
                app: app, tenant: tenant, origin: core.origin(of: request), caFile: core.secure ? caFile : nil)
            return HTTPExchange.html(ConnectAppPage(frame: frame, snippets: snippets).render())
        }
        registerUsers(on: ui)
        ui.get("log") { _, _ in HTTPExchange.html(logPage.render()) }
        ui.get("log-table") { _, _ in HTTPExchange.html(logPage.table) }
        ui.get("log/:number") { _, context in
            guard let number = context.parameters.get("number").flatMap(Int.init),
                let exchange = core.state.exchanges.exchange(number: number)
            else {
                return notFound(
                    "That request is no longer in the log (it keeps the last \(core.state.exchanges.capacity)).")
            }
            return HTTPExchange.html(ExchangePage(frame: frame, exchange: exchange).render())
        }
        ui.get("outbox") { _, _ in
            HTTPExchange.html(OutboxPage(frame: frame, messages: Array(await core.state.outbox)).render())
        }
        ui.get("inspector") { _, _ in HTTPExchange.html(inspector.render()) }
        ui.post("inspector") { _, context in
            HTTPExchange.html(inspector.render(token: context.form?["token"]))
        }
        ui.post("inspector/mint") { _, context in await mint(context.form ?? FormBody([:])) }
        registerControls(on: ui)
    }

    private var logPage: RequestLogPage {
        RequestLogPage(
            frame: frame, index: core.state.index, exchanges: core.state.exchanges.newestFirst,
            capacity: core.state.exchanges.capacity)
    }

    private var inspector: TokenInspectorPage {
        TokenInspectorPage(frame: frame, index: core.state.index, keys: core.keys, now: core.state.now)
    }

    // MARK: Users

    private func registerUsers(on ui: RouterGroup<EmulatorRequestContext>) {
        ui.get("users") { request, _ in
            HTTPExchange.html(UsersPage(frame: frame, index: core.state.index).render(notice: Self.notice(request)))
        }
        ui.post("users") { _, context in await addUser(context.form ?? FormBody([:])) }
        ui.get("users/:user") { request, context in
            guard let user = core.state.index.user(objectID: context.parameters.get("user") ?? "") else {
                return notFound("No such user.")
            }
            return HTTPExchange.html(await userPage(user).render(notice: Self.notice(request)))
        }
        ui.post("users/:user/profile") { _, context in
            await changeUser(context, done: "profile-saved") { user, form in
                user.displayName = form.nonEmpty("displayName") ?? user.displayName
                for (field, path) in [
                    ("givenName", \User.givenName), ("surname", \.surname), ("jobTitle", \.jobTitle), ("mail", \.mail),
                    ("mobilePhone", \.mobilePhone),
                ] {
                    if let value = form[field] { user[keyPath: path] = value.isEmpty ? nil : value }
                }
            }
        }
        ui.post("users/:user/password") { _, context in
            guard let password = context.form?.nonEmpty("password") else {
                return await userError(context, "A new password cannot be empty.")
            }
            return await changeUser(context, done: "password-reset", revoke: true) { user, _ in
                user.password = password
            }
        }
        ui.post("users/:user/enabled") { _, context in
            let enable = context.form?["enabled"] == "true"
            return await changeUser(context, done: enable ? "enabled" : "disabled", revoke: !enable) { user, _ in
                user.accountEnabled = enable ? nil : false
            }
        }
        ui.post("users/:user/revoke") { _, context in
            guard let user = core.state.index.user(objectID: context.parameters.get("user") ?? "") else {
                return notFound("No such user.")
            }
            _ = await core.state.revoke(userID: user.id)
            return HTTPExchange.redirect(to: Self.userPath(user) + "?done=revoked")
        }
        ui.post("users/:user/mfa") { _, context in
            let choice = context.form?["mfaRequired"]
            return await changeUser(context, done: "mfa-saved") { user, _ in
                user.mfaRequired =
                    switch choice {
                    case "required": true
                    case "not-required": false
                    default: nil
                    }
            }
        }
        ui.post("users/:user/methods") { _, context in
            let method = StrongAuthMethod(
                id: core.state.guid(), channel: context.form?["channel"] ?? "",
                target: (context.form?["target"] ?? "").trimmingCharacters(in: .whitespaces))
            return await changeUser(context, done: "method-added") { user, _ in
                user.strongAuthMethods = (user.strongAuthMethods ?? []) + [method]
            }
        }
        ui.post("users/:user/methods/:method/delete") { _, context in
            let id = context.parameters.get("method") ?? ""
            return await changeUser(context, done: "method-removed") { user, _ in
                user.strongAuthMethods = user.strongAuthMethods?.filter { $0.id.lowercased() != id.lowercased() }
            }
        }
    }

    private func userPage(_ user: User) async -> UserPage {
        let signedIn = await core.state.signInState(userID: user.id)
        return UserPage(
            frame: frame, index: core.state.index, user: user, sessions: signedIn.sessions,
            refreshTokens: signedIn.refreshTokens)
    }

    private static func userPath(_ user: User) -> String { "/_emulator/ui/users/\(DashboardFrame.segment(user.id))" }

    /// Adds the user the form describes, if the directory's rules accept them.
    private func addUser(_ form: FormBody) async -> Response {
        let index = core.state.index
        let page = UsersPage(frame: frame, index: index)
        guard let tenant = form.nonEmpty("tenant"), let name = form.nonEmpty("userPrincipalName"),
            let displayName = form.nonEmpty("displayName"), let password = form.nonEmpty("password")
        else {
            return HTTPExchange.html(
                page.render(
                    error: "A user needs a tenant, a user principal name, a display name and a password.", draft: form),
                status: .badRequest)
        }
        let user = User(
            id: core.state.guid(), tenant: tenant, userPrincipalName: name.trimmingCharacters(in: .whitespaces),
            password: password, displayName: displayName)
        var candidate = index.directory
        candidate.users.append(user)
        do {
            try candidate.validate()
        } catch {
            return HTTPExchange.html(page.render(error: "Not added: \(error)", draft: form), status: .badRequest)
        }
        guard await core.state.addUser(user) else {
            return HTTPExchange.html(
                page.render(error: "Not added: a user named \(user.userPrincipalName) exists.", draft: form),
                status: .badRequest)
        }
        return HTTPExchange.redirect(to: Self.userPath(user) + "?done=user-added")
    }

    /// Changes the user the path names with `change` (given the form), if the directory's rules accept the result;
    /// with `revoke`, revokes their sessions and refresh tokens too.
    private func changeUser(
        _ context: EmulatorRequestContext, done: String, revoke: Bool = false,
        _ change: @escaping @Sendable (inout User, FormBody) -> Void
    ) async -> Response {
        let index = core.state.index
        guard let user = index.user(objectID: context.parameters.get("user") ?? "") else {
            return notFound("No such user.")
        }
        let form = context.form ?? FormBody([:])
        var candidate = index.directory
        guard let position = candidate.users.firstIndex(where: { $0.id.lowercased() == user.id.lowercased() }) else {
            return notFound("No such user.")
        }
        change(&candidate.users[position], form)
        do {
            try candidate.validate()
        } catch {
            return await userError(context, "Not changed: \(error)")
        }
        await core.state.updateUser(id: user.id) { change(&$0, form) }
        if revoke { _ = await core.state.revoke(userID: user.id) }
        return HTTPExchange.redirect(to: Self.userPath(user) + "?done=\(done)")
    }

    private func userError(_ context: EmulatorRequestContext, _ message: String) async -> Response {
        guard let user = core.state.index.user(objectID: context.parameters.get("user") ?? "") else {
            return notFound("No such user.")
        }
        return HTTPExchange.html(await userPage(user).render(error: message), status: .badRequest)
    }

    // MARK: Tokens

    /// Mints the token the form asks for through ``TokensOnDemand`` and inspects it.
    private func mint(_ form: FormBody) async -> Response {
        let order = TokensOnDemand.TokenOrder(
            tenant: form["tenant"] ?? "", api: form["api"] ?? "", user: form.nonEmpty("user"),
            app: form.nonEmpty("app"),
            scopes: form.nonEmpty("scopes").map { $0.split(separator: " ").map(String.init) })
        do {
            let minted = try await TokensOnDemand(core: core).mint(order)
            return HTTPExchange.html(
                inspector.render(token: minted["access_token"]?.stringValue, notice: "A token was minted."))
        } catch {
            return HTTPExchange.html(inspector.render(error: "Not minted: \(error)"), status: .badRequest)
        }
    }

    // MARK: Faults, clock, keys, reset

    private func registerControls(on ui: RouterGroup<EmulatorRequestContext>) {
        ui.get("controls") { request, _ in HTTPExchange.html(await controls().render(notice: Self.notice(request))) }
        ui.post("scenarios") { _, context in
            let form = context.form ?? FormBody([:])
            guard let route = form["route"].flatMap(Scenario.Route.init(rawValue:)),
                let fault = form["fault"].flatMap(Scenario.Fault.init(rawValue:))
            else { return await controlsError("Choose a route and a fault.") }
            let scenario: Scenario
            do {
                scenario = try AdminRoutes.checked(
                    Scenario(
                        route: route, fault: fault, count: form.nonEmpty("count").flatMap { Int($0) } ?? 1,
                        retryAfter: form.nonEmpty("retryAfter"),
                        delayMilliseconds: form.nonEmpty("delayMilliseconds").flatMap { Int($0) }))
            } catch {
                return await controlsError("Not armed: \(error)")
            }
            await core.state.addScenario(scenario)
            return HTTPExchange.redirect(to: "/_emulator/ui/controls?done=scenario-added")
        }
        ui.post("scenarios/clear") { _, _ in
            await core.state.clearScenarios()
            return HTTPExchange.redirect(to: "/_emulator/ui/controls?done=scenarios-cleared")
        }
        ui.post("clock") { _, context in
            switch AdminRoutes.checkedClockOffset(context.form?.nonEmpty("offsetSeconds").flatMap { Double($0) }) {
            case .success(let seconds):
                core.state.setClockOffset(seconds)
                return HTTPExchange.redirect(to: "/_emulator/ui/controls?done=clock-set")
            case .failure(let problem):
                return await controlsError(problem.description)
            }
        }
        ui.post("keys/rotate") { _, _ in
            do {
                _ = try core.keys.rotate(now: core.state.now)
            } catch {
                return await controlsError("The new key could not be made: \(error)")
            }
            return HTTPExchange.redirect(to: "/_emulator/ui/controls?done=keys-rotated")
        }
        ui.post("reset") { _, _ in
            await core.state.reset()
            return HTTPExchange.redirect(to: "/_emulator/ui/controls?done=reset")
        }
    }

    private func controls() async -> ControlsPage {
        ControlsPage(
            frame: frame, scenarios: await core.state.activeScenarios(), now: core.state.now,
            offset: core.state.clockOffset, keys: core.keys.all.map(\.kid), counts: await core.state.liveCounts())
    }

    private func controlsError(_ message: String) async -> Response {
        HTTPExchange.html(await controls().render(error: message), status: .badRequest)
    }

    // MARK: Shared

    /// The notice a redirect's `done` names.
    private static func notice(_ request: Request) -> String? {
        HTTPExchange.query(request)["done"].flatMap { notices[$0] }
    }

    private func notFound(_ message: String) -> Response {
        HTTPExchange.html(frame.page("Not found", section: nil, body: "", error: message), status: .notFound)
    }
}
