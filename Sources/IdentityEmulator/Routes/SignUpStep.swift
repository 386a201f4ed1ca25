import Foundation
import Hummingbird

/// `prompt=create` on the External ID tenant: email, name and password, then an 8-digit code sent
/// to the outbox, then the new account signs in.
struct SignUpStep: Sendable {
    let core: EmulatorCore

    func start(flowID: String, pending: PendingAuthorization, form: FormBody, flow: SignInFlow) async -> Response {
        let email = form["email"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let name = form["displayName"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let password = form["password"] ?? ""
        guard email.contains("@"), email.contains(".") else {
            return flow.signUpPage(flowID, pending, error: "Enter a valid email address.")
        }
        guard core.state.index.user(named: email) == nil else {
            return flow.signUpPage(
                flowID, pending, error: "An account with this email address already exists. Sign in instead.")
        }
        guard !name.isEmpty else { return flow.signUpPage(flowID, pending, error: "Enter your name.") }
        guard password.count >= 8 else {
            return flow.signUpPage(flowID, pending, error: "The password must be at least 8 characters long.")
        }
        let code = String(format: "%08d", core.state.randomInt(in: 0...99_999_999))
        let now = core.state.now
        let draft = SignUpDraft(
            email: email, displayName: name, password: password, code: code,
            expiresAt: now.addingTimeInterval(600))
        _ = await core.state.updateProgress(flowID) { $0.signUp = draft }
        await core.state.send(
            OutboxMessage(to: email, subject: "Your account verification code", code: code, sentAt: now))
        return flow.verifyPage(flowID, pending, email: email, error: nil)
    }

    func verify(flowID: String, pending: PendingAuthorization, form: FormBody, cookie: String?, flow: SignInFlow) async
        -> Response
    {
        guard let draft = pending.progress.signUp else { return flow.signUpPage(flowID, pending, error: nil) }
        guard draft.expiresAt > (core.state.now) else {
            return flow.signUpPage(flowID, pending, error: "The code expired. Start again to get a new one.")
        }
        guard form["code"]?.trimmingCharacters(in: .whitespaces) == draft.code else {
            let updated = await core.state.updateProgress(flowID) { $0.signUp?.wrongCodes += 1 }
            guard let wrong = updated?.progress.signUp?.wrongCodes, wrong < NativeFlow.maximumWrongCodes else {
                _ = await core.state.updateProgress(flowID) { $0.signUp = nil }
                return flow.signUpPage(
                    flowID, pending, error: "Too many incorrect codes. Start again to get a new one.")
            }
            return flow.verifyPage(flowID, pending, email: draft.email, error: "That code is incorrect. Try again.")
        }
        let index = core.state.index
        guard case .tenant(let tenant)? = index.selector(pending.selectorSegment), tenant.kind != .workforce else {
            return flow.signInPage(flowID, pending, error: "Sign-up is only available on an External ID tenant.")
        }
        let user = User(
            id: core.state.guid(), tenant: tenant.id, userPrincipalName: draft.email,
            password: draft.password, displayName: draft.displayName, mail: draft.email)
        guard await core.state.addUser(user) else {
            return flow.signUpPage(
                flowID, pending, error: "An account with this email address already exists. Sign in instead.")
        }
        let sessionID = await core.state.signIn(userID: user.id, session: cookie)
        return await flow.proceed(flowID: flowID, user: user, sessionID: sessionID, setCookie: true)
    }
}
