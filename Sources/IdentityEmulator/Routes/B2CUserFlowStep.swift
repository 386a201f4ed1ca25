import Foundation
import HTTPTypes
import Hummingbird

/// The steps of B2C user flows beyond the sign-in page: "Forgot your password?" ending the request with
/// `AADB2C90118` (the app then starts its password reset policy), the password reset (an 8-digit code sent to the
/// outbox, then a new password), and the profile edit page.
struct B2CUserFlowStep: Sendable {
    let core: EmulatorCore

    /// The user flow a request came through, when it came through one of a B2C tenant's.
    static func userFlow(of pending: PendingAuthorization, in index: DirectoryIndex) -> B2CUserFlow? {
        guard let policy = pending.policy, case .tenant(let tenant)? = index.selector(pending.selectorSegment) else {
            return nil
        }
        return tenant.userFlow(policy)
    }

    func interact(
        _ action: String, flowID: String, pending: PendingAuthorization, form: FormBody, cookie: String?,
        flow: SignInFlow
    ) async -> Response {
        guard let userFlow = Self.userFlow(of: pending, in: core.state.index) else {
            return flow.signInPage(flowID, pending, error: nil)
        }
        switch (action, userFlow.kind) {
        case ("forgotpassword", .signUpOrSignIn):
            return await forgotPassword(flowID: flowID, pending: pending, flow: flow)
        case ("reset-start", .passwordReset): return await resetStart(flowID: flowID, pending: pending, form: form)
        case ("reset-verify", .passwordReset):
            return await resetVerify(flowID: flowID, pending: pending, form: form, cookie: cookie, flow: flow)
        case ("profile-save", .profileEdit):
            return await profileSave(flowID: flowID, pending: pending, form: form, flow: flow)
        default: return flow.signInPage(flowID, pending, error: nil)
        }
    }

    /// B2C's answer to "Forgot your password?" on a sign-up or sign-in flow: the request ends with `access_denied`
    /// and `AADB2C90118`, for the app to start its password reset flow.
    private func forgotPassword(flowID: String, pending: PendingAuthorization, flow: SignInFlow) async -> Response {
        await core.state.finishPending(flowID)
        let description =
            "AADB2C90118: The user has forgotten their password.\r\nCorrelation ID: \(core.state.guid())\r\n"
            + "Timestamp: \(core.state.now.estsTimestamp)\r\n"
        var fields = [("error", "access_denied"), ("error_description", description)]
        if let state = pending.state { fields.append(("state", state)) }
        return flow.deliver(fields, to: pending.redirectURI, responseMode: pending.responseMode)
    }

    func resetPage(_ flowID: String, _ pending: PendingAuthorization, error: String?) -> Response {
        HTTPExchange.html(B2CPages.passwordReset(action: loginAction(pending), flow: flowID, error: error))
    }

    private func resetStart(flowID: String, pending: PendingAuthorization, form: FormBody) async -> Response {
        let email = form["email"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let index = core.state.index
        guard let user = index.user(named: email), let selector = index.selector(pending.selectorSegment),
            index.membership(of: user, in: selector) != nil
        else {
            return resetPage(flowID, pending, error: "An account could not be found for the provided user ID.")
        }
        let code = String(format: "%08d", core.state.randomInt(in: 0...99_999_999))
        let now = core.state.now
        let draft = PasswordResetDraft(
            userID: user.id, email: email, code: code, expiresAt: now.addingTimeInterval(600))
        _ = await core.state.updateProgress(flowID) { $0.passwordReset = draft }
        await core.state.send(OutboxMessage(to: email, subject: "Your password reset code", code: code, sentAt: now))
        return verifyPage(flowID, pending, email: email, error: nil)
    }

    private func verifyPage(_ flowID: String, _ pending: PendingAuthorization, email: String, error: String?)
        -> Response
    {
        HTTPExchange.html(
            B2CPages.passwordResetVerify(action: loginAction(pending), flow: flowID, email: email, error: error))
    }

    private func resetVerify(
        flowID: String, pending: PendingAuthorization, form: FormBody, cookie: String?, flow: SignInFlow
    ) async -> Response {
        guard let draft = pending.progress.passwordReset, draft.expiresAt > core.state.now else {
            return resetPage(flowID, pending, error: "The code expired or was never sent. Start again.")
        }
        guard form["code"]?.trimmingCharacters(in: .whitespaces) == draft.code else {
            let updated = await core.state.updateProgress(flowID) { $0.passwordReset?.wrongCodes += 1 }
            guard let wrong = updated?.progress.passwordReset?.wrongCodes, wrong < NativeFlow.maximumWrongCodes else {
                _ = await core.state.updateProgress(flowID) { $0.passwordReset = nil }
                return resetPage(flowID, pending, error: "Too many incorrect codes. Start again to get a new one.")
            }
            return verifyPage(flowID, pending, email: draft.email, error: "That code is incorrect. Try again.")
        }
        let password = form["newPassword"] ?? ""
        guard password.count >= 8 else {
            return verifyPage(
                flowID, pending, email: draft.email, error: "The password must be at least 8 characters long.")
        }
        await core.state.updateUser(id: draft.userID) { $0.password = password }
        guard let user = core.state.index.user(objectID: draft.userID) else {
            return resetPage(flowID, pending, error: "The account no longer exists.")
        }
        let sessionID = await core.state.signIn(userID: user.id, session: cookie)
        return await flow.proceed(flowID: flowID, user: user, sessionID: sessionID, setCookie: true)
    }

    /// The profile edit page for `user`, setting the session cookie of a sign-in that just happened (`sessionID`).
    func profilePage(
        _ flowID: String, _ pending: PendingAuthorization, user: User, sessionID: String?, error: String?
    ) -> Response {
        var response = HTTPExchange.html(
            B2CPages.profileEdit(
                action: loginAction(pending), flow: flowID, displayName: user.displayName, error: error))
        if let sessionID {
            response.headers.append(
                HTTPField(name: .setCookie, value: SignInFlow.cookieHeader(SignInFlow.sessionCookie, sessionID)))
        }
        return response
    }

    private func profileSave(flowID: String, pending: PendingAuthorization, form: FormBody, flow: SignInFlow) async
        -> Response
    {
        guard let userID = pending.progress.userID, let user = core.state.index.user(objectID: userID) else {
            return flow.signInPage(flowID, pending, error: nil)
        }
        let name = form["displayName"]?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !name.isEmpty else {
            return profilePage(flowID, pending, user: user, sessionID: nil, error: "Enter a name.")
        }
        await core.state.updateUser(id: userID) { $0.displayName = name }
        _ = await core.state.updateProgress(flowID) { $0.profileEdited = true }
        guard let edited = core.state.index.user(objectID: userID) else {
            return flow.signInPage(flowID, pending, error: nil)
        }
        return await flow.proceed(flowID: flowID, user: edited, sessionID: pending.progress.sessionID, setCookie: false)
    }

    private func loginAction(_ pending: PendingAuthorization) -> String { SignInFlow(core: core).loginAction(pending) }
}
