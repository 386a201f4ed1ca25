import Foundation
import Hummingbird

/// Just-in-time registration of a strong-authentication method during native sign-in:
/// `/{tenant}/register/v1.0/introspect|challenge|continue`, with the continuation token of the token
/// endpoint's `registration_required`. A code proves the new contact (none is needed for the user's own, already
/// verified email: `preverified`); the method is then recorded for the user, so later sign-ins pass MFA on it,
/// and the last continuation token signs the user in (`grant_type=continuation_token`).
struct NativeRegisterRoutes: Sendable {
    let support: NativeAuthSupport

    func register(on router: Router<EmulatorRequestContext>) {
        support.post(":tenant/register/v1.0/introspect", on: router, introspect)
        support.post(":tenant/register/v1.0/challenge", on: router, challenge)
        support.post(":tenant/register/v1.0/continue", on: router, `continue`)
    }

    /// The kinds of method the user may register: an email code (hinting at their own address) and a text.
    private func introspect(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (_, flow) = try await support.take(form, kind: .signIn, caller: caller)
        guard Self.isRegistering(flow.stage) else { throw .invalidContinuationToken }
        let token = await support.issue(flow, caller: caller)
        let methods: [JSONValue] = [
            .object([
                ("id", .string("email")), ("challenge_type", .string("oob")), ("challenge_channel", .string("email")),
                ("login_hint", .string(NativeAuthSupport.mask(flow.username))),
            ]),
            .object([
                ("id", .string("sms")), ("challenge_type", .string("oob")), ("challenge_channel", .string("sms")),
                ("login_hint", .string("")),
            ]),
        ]
        return support.answer(
            [("continuation_token", .string(token)), ("methods", .array(methods))], request: request)
    }

    /// Sends a code to the contact to register (again, when asked twice: the previous code stops working), or
    /// answers `preverified` for the user's own email. Input errors keep the continuation token usable.
    private func challenge(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (token, flow) = try await support.take(form, kind: .signIn, caller: caller)
        guard Self.isRegistering(flow.stage) else { throw .invalidContinuationToken }
        let contact: (channel: String, target: String)
        do throws(EntraError) {
            contact = try Self.contact(form)
        } catch {
            await support.core.state.restoreContinuation(token, flow)
            throw error
        }
        var next = flow
        next.stage = .registrationCodeSent(channel: contact.channel, target: contact.target)
        if contact.channel == "email", contact.target.caseInsensitiveCompare(flow.username) == .orderedSame {
            next.code = nil
            let issued = await support.issue(next, caller: caller)
            return support.answer(
                [("challenge_type", .string("preverified")), ("continuation_token", .string(issued))],
                request: request)
        }
        next = await support.withNewCode(next, to: contact.target, subject: "Your verification code", caller: caller)
        let issued = await support.issue(next, caller: caller)
        return support.answer(
            [
                ("continuation_token", .string(issued)), ("challenge_type", .string("oob")),
                ("binding_method", .string("prompt")), ("challenge_target", .string(contact.target)),
                ("challenge_channel", .string(contact.channel)), ("code_length", .int(8)), ("interval", .int(300)),
            ], request: request)
    }

    /// Verifies the code (`grant_type=oob`), or takes `grant_type=continuation_token` after `preverified`;
    /// records the method and answers the continuation token that signs the user in. A wrong code keeps the
    /// continuation token usable.
    private func `continue`(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        var (token, flow) = try await support.take(form, kind: .signIn, caller: caller)
        guard case .registrationCodeSent(let channel, let target) = flow.stage else {
            throw .invalidContinuationToken
        }
        do throws(EntraError) {
            switch form.nonEmpty("grant_type") {
            case "oob":
                try support.verify(code: form.nonEmpty("oob"), flow: &flow)
            case "continuation_token":
                // Only a preverified contact needs no code.
                guard flow.code == nil else { throw .invalidCode }
            case nil:
                throw .missingParameter("grant_type")
            default:
                throw .unsupportedGrantType
            }
        } catch {
            await support.core.state.restoreContinuation(token, flow)
            throw error
        }
        guard let user = support.core.state.index.user(named: flow.username) else { throw .nativeUserNotFound }
        let known = support.strongAuthMethods(of: user).contains {
            $0.channel == channel && $0.target.lowercased() == target.lowercased()
        }
        if !known {
            let method = StrongAuthMethod(id: support.core.state.guid(), channel: channel, target: target)
            await support.core.state.updateUser(id: user.id) {
                $0.strongAuthMethods = ($0.strongAuthMethods ?? []) + [method]
            }
        }
        var next = flow
        next.stage = .completed(userID: user.id)
        next.code = nil
        let issued = await support.issue(next, caller: caller)
        return support.answer([("continuation_token", .string(issued))], request: request)
    }

    /// The contact to register: `challenge_type` including `oob`, `challenge_channel` `email` or `sms`, and a
    /// `challenge_target` valid for the channel.
    ///
    /// - Throws: `invalid_request` for a missing parameter or (AADSTS901001) an invalid contact;
    ///   `unsupported_challenge_type` for another challenge type or channel.
    private static func contact(_ form: FormBody) throws(EntraError) -> (channel: String, target: String) {
        guard let types = form.nonEmpty("challenge_type") else { throw .missingParameter("challenge_type") }
        guard types.split(separator: " ").contains(where: { $0.lowercased() == "oob" }) else {
            throw .unsupportedRegistrationChallenge
        }
        guard let channel = form.nonEmpty("challenge_channel")?.lowercased() else {
            throw .missingParameter("challenge_channel")
        }
        guard StrongAuthMethod.channels.contains(channel) else { throw .unsupportedRegistrationChallenge }
        guard let target = form.nonEmpty("challenge_target")?.trimmingCharacters(in: .whitespaces) else {
            throw .missingParameter("challenge_target")
        }
        guard StrongAuthMethod.problem(channel: channel, target: target) == nil else {
            throw .invalidVerificationContact
        }
        return (channel, target)
    }

    private static func isRegistering(_ stage: NativeFlow.Stage) -> Bool {
        switch stage {
        case .registrationRequired, .registrationCodeSent: true
        default: false
        }
    }
}
