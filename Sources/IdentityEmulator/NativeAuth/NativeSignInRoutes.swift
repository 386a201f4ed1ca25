import Foundation
import Hummingbird

/// Native sign-in: `/{tenant}/oauth2/v2.0/initiate`, `/challenge` (also resends a code) and `/introspect`.
/// The tokens come from the token endpoint (``NativeTokenGrants``). After `mfa_required` there, `/introspect`
/// lists the user's strong-authentication methods and `/challenge` sends the second-factor code on one of them.
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
            username: user.userPrincipalName, challengeTypes: types, capabilities: support.capabilities(form),
            expiresAt: support.core.state.now)
        let token = await support.issue(flow, caller: caller)
        return support.answer([("continuation_token", .string(token))], request: request)
    }

    /// Chooses how the user proves who they are: the password when they have one, else an email code;
    /// `redirect` when the client cannot collect that. Called again, it sends a new code. After
    /// `mfa_required`, it sends the second-factor code (``mfaChallenge(token:flow:caller:form:request:)``).
    private func challenge(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (token, flow) = try await support.take(form, kind: .signIn, caller: caller)
        switch flow.stage {
        case .started, .codeSent, .passwordChallenge: break
        case .mfaRequired, .mfaCodeSent:
            return try await mfaChallenge(token: token, flow: flow, caller: caller, form: form, request: request)
        default: throw .invalidContinuationToken
        }
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
        let issued = await support.issue(next, caller: caller)
        return support.answer(
            [("continuation_token", .string(issued)), ("challenge_type", .string("password"))], request: request)
    }

    /// MFA: sends a new code on the method `id` names, or on the default (first) method without `id`; a
    /// previous code stops working. An unknown `id` is refused and the continuation token stays usable.
    private func mfaChallenge(
        token: String, flow: NativeFlow, caller: NativeAuthSupport.Caller, form: FormBody, request: Request
    ) async throws(EntraError) -> Response {
        guard let user = support.core.state.index.user(named: flow.username) else { throw .nativeUserNotFound }
        let methods = support.strongAuthMethods(of: user)
        let chosen: StrongAuthMethod?
        if let id = form.nonEmpty("id") {
            chosen = methods.first(where: { $0.id.lowercased() == id.lowercased() })
        } else {
            chosen = methods.first
        }
        guard let method = chosen else {
            await support.core.state.restoreContinuation(token, flow)
            throw .unknownAuthMethod
        }
        var next = await support.withNewCode(
            flow, to: method.target, subject: "Your verification code", caller: caller)
        next.stage = .mfaCodeSent(methodID: method.id)
        let issued = await support.issue(next, caller: caller)
        return support.answer(
            [
                ("continuation_token", .string(issued)), ("challenge_type", .string("oob")),
                ("binding_method", .string("prompt")), ("challenge_channel", .string(method.channel)),
                ("challenge_target_label", .string(method.maskedTarget)), ("code_length", .int(8)),
            ], request: request)
    }

    /// After `mfa_required`: the user's strong-authentication methods, targets masked. Before (the first
    /// factor): the user's email, the one method of a customer without MFA.
    private func introspect(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (_, flow) = try await support.take(form, kind: .signIn, caller: caller)
        let methods: [JSONValue]
        switch flow.stage {
        case .mfaRequired, .mfaCodeSent:
            guard let user = support.core.state.index.user(named: flow.username) else {
                throw .nativeUserNotFound
            }
            methods = support.strongAuthMethods(of: user).map(\.introspection)
        case .started, .codeSent, .passwordChallenge:
            methods = [
                .object([
                    ("id", .string("email-\(flow.username.lowercased())")), ("challenge_type", .string("oob")),
                    ("challenge_channel", .string("email")),
                    ("login_hint", .string(NativeAuthSupport.mask(flow.username))),
                ])
            ]
        default:
            throw .invalidContinuationToken
        }
        let token = await support.issue(flow, caller: caller)
        return support.answer(
            [("continuation_token", .string(token)), ("methods", .array(methods))], request: request)
    }
}
