import Foundation
import Hummingbird

/// What every native-auth endpoint shares: the tenant and client checks, continuation tokens, sending
/// codes to the outbox, and the JSON answers.
struct NativeAuthSupport: Sendable {
    let core: EmulatorCore

    /// The External ID tenant and public client a request is for.
    struct Caller: Sendable {
        let tenant: Tenant
        let settings: NativeAuthSettings
        let client: Application
    }

    /// - Throws: `invalid_tenant` for an unknown tenant; `unauthorized_client` when the tenant is not
    ///   External ID or the client is not one of its public clients.
    func caller(segment: String, form: FormBody) throws(EntraError) -> Caller {
        let index = core.state.index
        guard case .tenant(let tenant)? = index.selector(segment) else { throw .tenantNotFoundAtToken(segment) }
        guard let clientID = form.nonEmpty("client_id") else { throw .missingParameter("client_id") }
        guard let client = index.application(clientID: clientID), client.kind == .publicClient,
            client.tenant.lowercased() == tenant.id.lowercased()
        else { throw .unknownClient(clientID, tenant: segment) }
        guard let settings = tenant.nativeAuthSettings else { throw .nativeAuthNotEnabled }
        return Caller(tenant: tenant, settings: settings, client: client)
    }

    /// The declared `challenge_type`s; they must include `redirect`.
    func challengeTypes(_ form: FormBody) throws(EntraError) -> Set<String> {
        guard let raw = form.nonEmpty("challenge_type") else { throw .missingParameter("challenge_type") }
        let types = Set(raw.split(separator: " ").map { $0.lowercased() })
        guard types.contains("redirect") else { throw .unsupportedChallengeType }
        return types
    }

    /// The capabilities the client declares on a flow's first call: `capabilities` (MSAL's name) and
    /// `capability` (the Learn reference's), values separated by spaces or commas, lower case.
    func capabilities(_ form: FormBody) -> Set<String> {
        let raw = [form["capabilities"], form["capability"]].compactMap { $0 }.joined(separator: " ")
        return Set(raw.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.lowercased() })
    }

    /// The username, which must look like an email address.
    func username(_ form: FormBody) throws(EntraError) -> String {
        guard let name = form.nonEmpty("username")?.trimmingCharacters(in: .whitespaces), name.contains("@"),
            !name.hasPrefix("@"), !name.hasSuffix("@")
        else { throw .invalidUsername }
        return name
    }

    /// Takes the flow behind the request's `continuation_token`; the token is spent.
    ///
    /// - Throws: `invalid_request` (55000) for an unknown, used or foreign token; `expired_token` when it expired.
    func take(_ form: FormBody, kind: NativeFlow.Kind, caller: Caller) async throws(EntraError) -> (
        token: String, flow: NativeFlow
    ) {
        try await take(form, kinds: [kind], caller: caller)
    }

    func take(_ form: FormBody, kinds: Set<NativeFlow.Kind>, caller: Caller) async throws(EntraError) -> (
        token: String, flow: NativeFlow
    ) {
        guard let token = form.nonEmpty("continuation_token") else { throw .missingParameter("continuation_token") }
        guard let flow = await core.state.takeContinuation(token), kinds.contains(flow.kind),
            flow.clientID.lowercased() == caller.client.clientId.lowercased(),
            flow.tenantID.lowercased() == caller.tenant.id.lowercased()
        else { throw .invalidContinuationToken }
        guard flow.expiresAt > core.state.now else { throw .expiredContinuationToken }
        return (token, flow)
    }

    /// Stores the flow under a fresh continuation token valid for the tenant's lifetime.
    func issue(_ flow: NativeFlow, caller: Caller) async -> String {
        var flow = flow
        flow.expiresAt = core.state.now.addingTimeInterval(TimeInterval(caller.settings.continuationTokenLifetime))
        return await core.state.issueContinuation(flow)
    }

    /// Puts a new 8-digit code on the flow, replacing an earlier one (which stops working), and delivers it
    /// to `target` (an email address or a phone number) through the outbox.
    ///
    /// - Returns: the flow with the code; setting its stage is the caller's part.
    func withNewCode(_ flow: NativeFlow, to target: String, subject: String, caller: Caller) async -> NativeFlow {
        var flow = flow
        let now = core.state.now
        let code = String(format: "%08d", core.state.randomInt(in: 0...99_999_999))
        flow.code = NativeFlow.Code(
            value: code, expiresAt: now.addingTimeInterval(TimeInterval(caller.settings.codeLifetime)))
        flow.wrongCodes = 0
        await core.state.send(OutboxMessage(to: target, subject: subject, code: code, sentAt: now))
        return flow
    }

    /// Sends a new 8-digit code to the user's outbox and answers with the `oob` challenge.
    func sendCode(_ flow: NativeFlow, caller: Caller, request: Request) async -> Response {
        let subject =
            switch flow.kind {
            case .signIn: "Your sign-in code"
            case .signUp: "Your account verification code"
            case .resetPassword: "Your password reset code"
            }
        var next = await withNewCode(flow, to: flow.username, subject: subject, caller: caller)
        next.stage = .codeSent
        let token = await issue(next, caller: caller)
        return answer(
            [
                ("continuation_token", .string(token)), ("challenge_type", .string("oob")),
                ("binding_method", .string("prompt")),
                ("challenge_target_label", .string(Self.mask(flow.username))), ("challenge_channel", .string("email")),
                ("code_length", .int(8)), ("interval", .int(300)),
            ], request: request)
    }

    /// The answer telling the client to fall back to the browser.
    func redirect(_ reason: String, request: Request) -> Response {
        answer([("challenge_type", .string("redirect")), ("redirect_reason", .string(reason))], request: request)
    }

    /// A 200 JSON answer with ESTS's headers.
    func answer(_ members: [(String, JSONValue)], request: Request) -> Response {
        var headers = HTTPExchange.estsHeaders(traceID: core.traceID(), secure: core.secure)
        if let id = request.headers[.clientRequestID] { headers[.clientRequestID] = id }
        return HTTPExchange.json(.object(members), headers: headers)
    }

    /// Checks a submitted code against the flow's, counting wrong ones in `flow`: the
    /// ``NativeFlow/maximumWrongCodes``th wrong code voids the code, so only a new one (a resend) can pass.
    ///
    /// - Throws: `invalid_grant`/`invalid_oob_value`, "incorrect", "expired" or "too many".
    func verify(code submitted: String?, flow: inout NativeFlow) throws(EntraError) {
        guard let code = flow.code, let submitted, !submitted.isEmpty else { throw .invalidCode }
        guard code.expiresAt > core.state.now else { throw .expiredCode }
        guard submitted.trimmingCharacters(in: .whitespaces) == code.value else {
            flow.wrongCodes += 1
            guard flow.wrongCodes < NativeFlow.maximumWrongCodes else {
                flow.code = nil
                flow.wrongCodes = 0
                throw .tooManyWrongCodes
            }
            throw .invalidCode
        }
    }

    /// `jane@example.com` → `j***@e******.com`, as Entra shows the address a code went to.
    static func mask(_ email: String) -> String {
        let parts = email.split(separator: "@", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return "***" }
        let domainParts = parts[1].split(separator: ".", maxSplits: 1).map(String.init)
        let domain = domainParts[0].prefix(1) + String(repeating: "*", count: max(domainParts[0].count - 1, 1))
        return parts[0].prefix(1) + "***@" + domain + (domainParts.count > 1 ? "." + domainParts[1] : "")
    }
}

extension NativeAuthSupport {
    /// Registers a `POST` route whose handler throws ``EntraError`` answers.
    func post(
        _ path: RouterPath, on router: Router<EmulatorRequestContext>,
        _ handler: @escaping @Sendable (Request, Caller, FormBody) async throws(EntraError) -> Response
    ) {
        router.post(path) { request, context in
            let form = try await HTTPExchange.form(request, context: context)
            do throws(EntraError) {
                let caller = try caller(segment: context.parameters.get("tenant") ?? "", form: form)
                return try await handler(request, caller, form)
            } catch {
                return await core.errorResponse(error, for: request)
            }
        }
    }
}
