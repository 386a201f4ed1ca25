import Foundation
import Hummingbird

/// Native password reset: `/{tenant}/resetpassword/v1.0/start|challenge|continue|submit|poll_completion`.
/// A code proves the email, the new password must pass the tenant's policy, and the change is applied
/// asynchronously: the first poll says `in_progress`, the next `succeeded`.
struct NativeResetPasswordRoutes: Sendable {
    let support: NativeAuthSupport

    func register(on router: Router<EmulatorRequestContext>) {
        support.post(":tenant/resetpassword/v1.0/start", on: router, start)
        support.post(":tenant/resetpassword/v1.0/challenge", on: router, challenge)
        support.post(":tenant/resetpassword/v1.0/continue", on: router, `continue`)
        support.post(":tenant/resetpassword/v1.0/submit", on: router, submit)
        support.post(":tenant/resetpassword/v1.0/poll_completion", on: router, poll)
    }

    private func start(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let types = try support.challengeTypes(form)
        let username = try support.username(form)
        guard let user = support.core.state.index.user(named: username),
            user.tenant.lowercased() == caller.tenant.id.lowercased()
        else {
            throw .nativeUserNotFound
        }
        guard user.password != nil else { throw .userHasNoPassword }
        guard types.contains("oob") else {
            return support.redirect("Password reset needs the oob challenge type.", request: request)
        }
        let flow = NativeFlow(
            kind: .resetPassword, clientID: caller.client.clientId, tenantID: caller.tenant.id,
            username: user.userPrincipalName, challengeTypes: types, capabilities: support.capabilities(form),
            expiresAt: support.core.state.now)
        let token = await support.issue(flow, caller: caller)
        return support.answer([("continuation_token", .string(token))], request: request)
    }

    private func challenge(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (_, flow) = try await support.take(form, kind: .resetPassword, caller: caller)
        guard flow.stage == .started || flow.stage == .codeSent else { throw .invalidContinuationToken }
        return await support.sendCode(flow, caller: caller, request: request)
    }

    private func `continue`(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        var (token, flow) = try await support.take(form, kind: .resetPassword, caller: caller)
        guard form.nonEmpty("grant_type") == "oob", flow.stage == .codeSent else { throw .invalidContinuationToken }
        do throws(EntraError) {
            try support.verify(code: form.nonEmpty("oob"), flow: &flow)
        } catch {
            await support.core.state.restoreContinuation(token, flow)
            throw error
        }
        var next = flow
        next.stage = .verified
        next.code = nil
        let issued = await support.issue(next, caller: caller)
        return support.answer(
            [("continuation_token", .string(issued)), ("expires_in", .int(caller.settings.continuationTokenLifetime))],
            request: request)
    }

    private func submit(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (token, flow) = try await support.take(form, kind: .resetPassword, caller: caller)
        guard flow.stage == .verified else { throw .invalidContinuationToken }
        guard let password = form.nonEmpty("new_password") else {
            await support.core.state.restoreContinuation(token, flow)
            throw .missingParameter("new_password")
        }
        guard let user = support.core.state.index.user(named: flow.username) else { throw .nativeUserNotFound }
        if let problem = caller.settings.passwordPolicy.problem(
            with: password, username: flow.username, current: user.password)
        {
            await support.core.state.restoreContinuation(token, flow)
            throw .refusedPassword(problem)
        }
        await support.core.state.updateUser(id: user.id) { $0.password = password }
        var next = flow
        next.stage = .resetting(pollsLeft: 1)
        let issued = await support.issue(next, caller: caller)
        return support.answer([("continuation_token", .string(issued)), ("poll_interval", .int(1))], request: request)
    }

    /// `in_progress` answers keep the same continuation token (clients poll with it); `succeeded` gives
    /// the token that signs the user in.
    private func poll(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody) async throws(EntraError)
        -> Response
    {
        let (token, flow) = try await support.take(form, kind: .resetPassword, caller: caller)
        guard case .resetting(let pollsLeft) = flow.stage else { throw .invalidContinuationToken }
        var next = flow
        if pollsLeft > 0 {
            next.stage = .resetting(pollsLeft: pollsLeft - 1)
            await support.core.state.restoreContinuation(token, next)
            return support.answer(
                [("status", .string("in_progress")), ("continuation_token", .string(token))], request: request)
        }
        guard let user = support.core.state.index.user(named: flow.username) else { throw .nativeUserNotFound }
        next.stage = .completed(userID: user.id)
        let issued = await support.issue(next, caller: caller)
        return support.answer(
            [
                ("status", .string("succeeded")), ("continuation_token", .string(issued)),
                ("expires_in", .int(caller.settings.continuationTokenLifetime)),
            ], request: request)
    }
}
