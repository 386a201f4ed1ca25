import Foundation
import HTTPTypes
import Hummingbird

/// The interactive part of sign-in shared by `/authorize` and `/devicelogin`: SSO, the account
/// picker, credentials, consent, External ID sign-up, and the final redirect or device approval.
struct SignInFlow: Sendable {
    static let sessionCookie = "ESTSAUTH"
    /// The browser's id, which binds each sign-in flow to the browser that started it (Entra's `buid`).
    static let browserCookie = "buid"

    let core: EmulatorCore

    func register(on router: Router<EmulatorRequestContext>) {
        router.post(":tenant/login") { request, context in
            let form = try await HTTPExchange.form(request, context: context)
            return await interact(request, form: form)
        }
    }

    func loginAction(_ pending: PendingAuthorization) -> String { "/\(pending.selectorSegment)/login" }

    /// Stores the request, bound to the browser that made it (its `buid` cookie, set here when it has none),
    /// and shows the first page: only that browser can post the sign-in forms of this flow, so a cross-site
    /// post from another page cannot sign a victim's browser in to an attacker's account.
    func begin(_ pending: PendingAuthorization, request: Request) async -> Response {
        var pending = pending
        let known = HTTPExchange.cookie(Self.browserCookie, in: request)
        pending.browserID = known ?? core.state.opaque(24)
        let flowID = await core.state.storePending(pending)
        var response = await start(flowID: flowID, pending: pending, request: request)
        if known == nil {
            response.headers.append(
                HTTPField(name: .setCookie, value: Self.cookieHeader(Self.browserCookie, pending.browserID)))
        }
        return response
    }

    /// Decides what the browser sees first, following `prompt` and the SSO session.
    private func start(flowID: String, pending: PendingAuthorization, request: Request) async -> Response {
        let index = core.state.index
        let cookie = HTTPExchange.cookie(Self.sessionCookie, in: request)
        let session = await core.state.session(cookie)
        guard let selector = index.selector(pending.selectorSegment) else { return await expired() }
        let eligible = (session?.userIDs ?? []).compactMap(index.user(objectID:))
            .filter { index.membership(of: $0, in: selector) != nil }
        let hinted = pending.loginHint.flatMap { hint in
            eligible.first { $0.userPrincipalName.lowercased() == hint.lowercased() }
        }
        if B2CUserFlowStep.userFlow(of: pending, in: index)?.kind == .passwordReset {
            return B2CUserFlowStep(core: core).resetPage(flowID, pending, error: nil)
        }
        switch pending.prompt {
        case "none":
            let chosen = hinted ?? (pending.loginHint == nil && eligible.count == 1 ? eligible.first : nil)
            guard let user = chosen else {
                let error =
                    eligible.count > 1 && pending.loginHint == nil
                    ? EntraError(
                        error: "interaction_required", code: 16000,
                        message:
                            "Either multiple user identities are available for the current request or selected account is not supported for the scenario."
                    )
                    : EntraError(
                        error: "login_required", code: 50058,
                        message:
                            "A silent sign-in request was sent but no user is signed in.")
                await core.state.finishPending(flowID)
                return errorRedirect(target(pending), error)
            }
            return await proceed(flowID: flowID, user: user, sessionID: session?.id, setCookie: false)
        case "login":
            return credentialsPage(flowID, pending)
        case "create":
            let isExternal = index.tenant(id: selectorTenantID(selector) ?? "")?.kind == .external
            return isExternal ? signUpPage(flowID, pending, error: nil) : signInPage(flowID, pending, error: nil)
        case "select_account":
            return eligible.isEmpty ? credentialsPage(flowID, pending) : pickerPage(flowID, pending, eligible)
        default:
            if let user = hinted ?? (pending.loginHint == nil && eligible.count == 1 ? eligible.first : nil) {
                return await proceed(flowID: flowID, user: user, sessionID: session?.id, setCookie: false)
            }
            if eligible.count > 1, pending.loginHint == nil { return pickerPage(flowID, pending, eligible) }
            return credentialsPage(flowID, pending)
        }
    }

    /// The credentials page; with a `domain_hint`, the page home-realm discovery leads to (``DomainHint``): the
    /// hinted tenant's own sign-in, or a page saying where a federated or unknown domain would send the browser.
    private func credentialsPage(_ flowID: String, _ pending: PendingAuthorization) -> Response {
        guard let hint = pending.domainHint else { return signInPage(flowID, pending, error: nil) }
        let destination: String?
        let organization: String?
        switch DomainHint(hint, index: core.state.index) {
        case .tenant(let name): return signInPage(flowID, pending, error: nil, organization: name)
        case .federated(let name, let signInURL): (organization, destination) = (name, signInURL)
        case .unknown: (organization, destination) = (nil, nil)
        }
        return HTTPExchange.html(
            SignInPages.homeRealm(
                action: loginAction(pending), flow: flowID, appName: pending.client.displayName, domain: hint,
                organization: organization, destination: destination))
    }

    /// `POST /{tenant}/login`: one step of the pages (`action` = signin, pick, other, consent, signup…).
    func interact(_ request: Request, form: FormBody) async -> Response {
        guard let flowID = form.nonEmpty("flow"), let pending = await core.state.pendingAuthorization(flowID) else {
            return await expired()
        }
        guard HTTPExchange.cookie(Self.browserCookie, in: request) == pending.browserID else {
            return HTTPExchange.html(
                SignInPages.message(
                    title: "Sign-in from another browser",
                    text: "This sign-in was started in another browser. Go back to the application and start again."),
                status: .badRequest)
        }
        let index = core.state.index
        let cookie = HTTPExchange.cookie(Self.sessionCookie, in: request)
        switch form["action"] ?? "" {
        case "cancel":
            return await cancel(flowID: flowID, pending: pending)
        case "other":
            return signInPage(flowID, pending, error: nil)
        case "pick":
            guard let userID = form.nonEmpty("account"), let session = await core.state.session(cookie),
                session.userIDs.contains(userID), let user = index.user(objectID: userID)
            else { return signInPage(flowID, pending, error: "That account is no longer signed in. Sign in again.") }
            return await proceed(flowID: flowID, user: user, sessionID: session.id, setCookie: false)
        case "signin":
            let username = form["username"]?.trimmingCharacters(in: .whitespaces) ?? ""
            guard let user = index.user(named: username) else {
                return signInPage(
                    flowID, pending, username: username,
                    error:
                        "AADSTS50034: This username may be incorrect. Make sure you typed it correctly.")
            }
            guard let password = user.password else {
                return signInPage(
                    flowID, pending, username: username,
                    error:
                        "This account signs in with a one-time code; use the app's email code sign-in.")
            }
            switch core.state.lockout.attempt(
                userID: user.id, matches: SecretComparison.matches(form["password"], password), now: core.state.now)
            {
            case .accepted:
                break
            case .wrong:
                return signInPage(
                    flowID, pending, username: username,
                    error:
                        "AADSTS50126: Your account or password is incorrect.")
            case .locked:
                return signInPage(
                    flowID, pending, username: username,
                    error:
                        "AADSTS50053: Your account is locked because you've tried to sign in too many times with an "
                        + "incorrect user ID or password.")
            }
            let sessionID = await core.state.signIn(userID: user.id, session: cookie)
            return await proceed(flowID: flowID, user: user, sessionID: sessionID, setCookie: true)
        case "consent":
            guard let userID = pending.progress.userID, let user = index.user(objectID: userID) else {
                return signInPage(flowID, pending, error: nil)
            }
            await core.state.recordConsent(
                userID: userID, clientID: pending.client.clientId, grants: pending.scopes.allGrants())
            _ = await core.state.updateProgress(flowID) { $0.consentGiven = true }
            return await proceed(flowID: flowID, user: user, sessionID: pending.progress.sessionID, setCookie: false)
        case "forgotpassword", "reset-start", "reset-verify", "profile-save":
            return await B2CUserFlowStep(core: core).interact(
                form["action"] ?? "", flowID: flowID, pending: pending, form: form, cookie: cookie, flow: self)
        case "signup":
            return signUpPage(flowID, pending, error: nil)
        case "signup-start":
            return await SignUpStep(core: core).start(flowID: flowID, pending: pending, form: form, flow: self)
        case "signup-verify":
            return await SignUpStep(core: core).verify(
                flowID: flowID, pending: pending, form: form, cookie: cookie, flow: self)
        default:
            return signInPage(flowID, pending, error: nil)
        }
    }

    /// With a chosen user: check tenant membership and consent, then complete.
    func proceed(flowID: String, user: User, sessionID: String?, setCookie: Bool) async -> Response {
        let index = core.state.index
        guard
            let pending = await core.state.updateProgress(
                flowID,
                {
                    $0.userID = user.id
                    $0.sessionID = sessionID
                }),
            let selector = index.selector(pending.selectorSegment)
        else { return await expired() }
        guard let membership = index.membership(of: user, in: selector) else {
            return signInPage(
                flowID, pending, username: user.userPrincipalName,
                error:
                    "AADSTS50020: User account '\(user.userPrincipalName)' does not exist in tenant '\(pending.selectorSegment)' and cannot access the application. The account needs to be added as an external user in the tenant first."
            )
        }
        if B2CUserFlowStep.userFlow(of: pending, in: index)?.kind == .profileEdit, !pending.progress.profileEdited {
            return B2CUserFlowStep(core: core).profilePage(
                flowID, pending, user: user, sessionID: setCookie ? sessionID : nil, error: nil)
        }
        let consented = await core.state.consentedScopes(userID: user.id, client: pending.client)
        let missing = pending.scopes.allGrants().filter { !consented.contains($0.key) }
        let mustAsk = !missing.isEmpty || (pending.prompt == "consent" && !pending.progress.consentGiven)
        if mustAsk, !pending.progress.consentGiven {
            if pending.prompt == "none" {
                await core.state.finishPending(flowID)
                return errorRedirect(
                    target(pending),
                    EntraError(
                        error: "consent_required", code: 65001,
                        message:
                            "The user or administrator has not consented to use the application with ID '\(pending.client.clientId)'."
                    ))
            }
            var response = consentPage(flowID, pending, user: user)
            if setCookie, let sessionID {
                response.headers.append(
                    HTTPField(name: .setCookie, value: Self.cookieHeader(Self.sessionCookie, sessionID)))
            }
            return response
        }
        var response = await complete(
            flowID: flowID, pending: pending, membership: membership, sessionID: sessionID ?? "")
        if setCookie, let sessionID {
            response.headers.append(
                HTTPField(name: .setCookie, value: Self.cookieHeader(Self.sessionCookie, sessionID)))
        }
        return response
    }

    private func complete(flowID: String, pending: PendingAuthorization, membership: Membership, sessionID: String)
        async -> Response
    {
        await core.state.finishPending(flowID)
        let now = core.state.now
        switch pending.completion {
        case .device(let userCode):
            if let device = await core.state.deviceAuthorization(userCode: userCode) {
                await core.state.setDeviceStatus(
                    deviceCode: device.deviceCode,
                    .approved(tenantID: membership.tenant.id, objectID: membership.objectID))
            }
            return HTTPExchange.html(
                SignInPages.message(
                    title: pending.client.displayName,
                    text:
                        "You have signed in to the \(pending.client.displayName) application on your device. You may now close this window."
                ))
        case .redirect:
            let anotherClient =
                await core.scenario(for: .authorize, where: { $0.fault == .codeForAnotherClient }) != nil
            let code = await core.state.issueCode(
                AuthorizationCodeGrant(
                    clientID: anotherClient ? "00000000-0000-0000-0000-00000000c0de" : pending.client.clientId,
                    redirectURI: pending.redirectURI, codeChallenge: pending.codeChallenge,
                    codeChallengeMethod: pending.codeChallengeMethod, nonce: pending.nonce, scopes: pending.scopes,
                    tenantID: membership.tenant.id, objectID: membership.objectID, sessionID: sessionID,
                    expiresAt: now.addingTimeInterval(600)))
            var fields = [("code", code)]
            if pending.clientInfo {
                fields.append(("client_info", TokenIssuer.clientInfo(membership, policy: pending.policy)))
            }
            if var state = pending.state {
                if await core.scenario(for: .authorize, where: { $0.fault == .wrongState }) != nil {
                    state = "tampered-" + state
                }
                fields.append(("state", state))
            }
            if pending.clientInfo, let session = await core.state.session(sessionID) {
                fields.append(("session_state", session.state))
            }
            return deliver(fields, to: pending.redirectURI, responseMode: pending.responseMode)
        }
    }

    private func cancel(flowID: String, pending: PendingAuthorization) async -> Response {
        await core.state.finishPending(flowID)
        switch pending.completion {
        case .device(let userCode):
            if let device = await core.state.deviceAuthorization(userCode: userCode) {
                await core.state.setDeviceStatus(deviceCode: device.deviceCode, .declined)
            }
            return HTTPExchange.html(
                SignInPages.message(
                    title: "Sign-in declined",
                    text:
                        "You declined to sign in to \(pending.client.displayName) on your device. You may now close this window."
                ))
        case .redirect:
            var fields = [
                ("error", "access_denied"), ("error_subcode", "cancel"),
                ("error_description", "the user canceled the authentication"),
            ]
            if let state = pending.state { fields.append(("state", state)) }
            return deliver(fields, to: pending.redirectURI, responseMode: pending.responseMode)
        }
    }

    /// An authorize error sent back to the (registered) redirect URI.
    func errorRedirect(_ target: ErrorTarget, _ error: EntraError) -> Response {
        var fields = [("error", error.error), ("error_description", "AADSTS\(error.code): \(error.message)")]
        if let state = target.state { fields.append(("state", state)) }
        fields.append(("error_uri", "https://login.microsoftonline.com/error?code=\(error.code)"))
        return deliver(fields, to: target.redirectURI, responseMode: target.responseMode)
    }

    private func target(_ pending: PendingAuthorization) -> ErrorTarget {
        ErrorTarget(redirectURI: pending.redirectURI, responseMode: pending.responseMode, state: pending.state)
    }

    func deliver(_ fields: [(String, String)], to redirectURI: String, responseMode: String) -> Response {
        switch responseMode {
        case "form_post":
            return HTTPExchange.html(SignInPages.formPost(to: RedirectURI.withPath(redirectURI), fields: fields))
        default:
            return HTTPExchange.redirect(
                to: RedirectURI.appending(fields, to: redirectURI, inFragment: responseMode == "fragment"))
        }
    }

    /// A `Set-Cookie` value for the emulator's own cookies (the SSO session, the browser's id).
    static func cookieHeader(_ name: String, _ value: String) -> String {
        "\(name)=\(value); Path=/; HttpOnly; SameSite=Lax"
    }

    private func selectorTenantID(_ selector: TenantSelector) -> String? {
        if case .tenant(let t) = selector { return t.id }
        return nil
    }

    // MARK: Pages

    func signInPage(
        _ flowID: String, _ pending: PendingAuthorization, username: String? = nil, error: String?,
        organization: String? = nil
    ) -> Response {
        let external =
            pending.selectorSegment.lowercased().hasSuffix(".onmicrosoft.com")
            || pending.client.tenant == pending.selectorSegment
        return HTTPExchange.html(
            SignInPages.signIn(
                action: loginAction(pending), flow: flowID, appName: pending.client.displayName,
                username: username ?? pending.loginHint, error: error, canSignUp: external, organization: organization,
                forgotPassword: B2CUserFlowStep.userFlow(of: pending, in: core.state.index)?.kind == .signUpOrSignIn))
    }

    func signUpPage(_ flowID: String, _ pending: PendingAuthorization, error: String?) -> Response {
        HTTPExchange.html(
            SignInPages.signUp(
                action: loginAction(pending), flow: flowID, appName: pending.client.displayName, error: error))
    }

    func verifyPage(_ flowID: String, _ pending: PendingAuthorization, email: String, error: String?) -> Response {
        HTTPExchange.html(
            SignInPages.verifyEmail(action: loginAction(pending), flow: flowID, email: email, error: error))
    }

    private func pickerPage(_ flowID: String, _ pending: PendingAuthorization, _ users: [User]) -> Response {
        HTTPExchange.html(
            SignInPages.accountPicker(
                action: loginAction(pending), flow: flowID, appName: pending.client.displayName,
                accounts: users.map { ($0.id, $0.displayName, $0.userPrincipalName) }))
    }

    private func consentPage(_ flowID: String, _ pending: PendingAuthorization, user: User) -> Response {
        HTTPExchange.html(
            SignInPages.consent(
                action: loginAction(pending), flow: flowID, appName: pending.client.displayName,
                user: user.userPrincipalName,
                scopes: pending.scopes.allGrants().map(\.name) + ["Maintain access to data you have given it access to"]
            ))
    }

    private func expired() async -> Response {
        HTTPExchange.html(
            SignInPages.message(
                title: "Sign-in expired",
                text:
                    "This sign-in request is no longer valid. Go back to the application and start again."),
            status: .badRequest)
    }
}
