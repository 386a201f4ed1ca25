import Foundation
import Hummingbird

/// Native sign-in: `/{tenant}/oauth2/v2.0/initiate`, `/challenge` (also resends a code) and `/introspect`.
/// The tokens come from the token endpoint (``NativeTokenGrants``).
struct NativeSignInRoutes: Sendable {
    let support: NativeAuthSupport

    func register(on router: Router<EmulatorRequestContext>) {
        support.post(":tenant/oauth2/v2.0/initiate", on: router, initiate)
        support.post(":tenant/oauth2/v2.0/challenge", on: router, challenge)
        support.post(":tenant/oauth2/v2.0/introspect", on: router, introspect)
    }

    private func initiate(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let types = try support.challengeTypes(form)
        let username = try support.username(form)
        guard let user = support.core.state.index.user(named: username),
            user.tenant.lowercased() == caller.tenant.id.lowercased()
        else { throw .nativeUserNotFound }
        let flow = NativeFlow(
            kind: .signIn, clientID: caller.client.clientId, tenantID: caller.tenant.id,
            username: user.userPrincipalName, challengeTypes: types, expiresAt: support.core.state.now)
        let token = await support.issue(flow, caller: caller)
        return support.answer([("continuation_token", .string(token))], request: request)
    }

    /// Chooses how the user proves who they are: the password when they have one, else an email code;
    /// `redirect` when the client cannot collect that. Called again, it sends a new code.
    private func challenge(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (_, flow) = try await support.take(form, kind: .signIn, caller: caller)
        let types =
            form.nonEmpty("challenge_type").map { Set($0.split(separator: " ").map { $0.lowercased() }) }
            ?? flow.challengeTypes
        guard let user = support.core.state.index.user(named: flow.username) else { throw .nativeUserNotFound }
        if flow.stage == .codeSent || user.password == nil {
            guard types.contains("oob") else {
                return support.redirect("The user signs in with an email code.", request: request)
            }
            return await support.sendCode(flow, caller: caller, request: request)
        }
        guard types.contains("password") else {
            return support.redirect("The user signs in with a password.", request: request)
        }
        var next = flow
        next.stage = .passwordChallenge
        let token = await support.issue(next, caller: caller)
        return support.answer(
            [("continuation_token", .string(token)), ("challenge_type", .string("password"))], request: request)
    }

    /// The user's registered strong-authentication methods (their email).
    private func introspect(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (_, flow) = try await support.take(form, kind: .signIn, caller: caller)
        let token = await support.issue(flow, caller: caller)
        let method: JSONValue = .object([
            ("id", .string("email-\(flow.username.lowercased())")), ("challenge_type", .string("oob")),
            ("challenge_channel", .string("email")), ("login_hint", .string(NativeAuthSupport.mask(flow.username))),
        ])
        return support.answer(
            [("continuation_token", .string(token)), ("methods", .array([method]))], request: request)
    }
}
