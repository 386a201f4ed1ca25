import Foundation
import Hummingbird

/// Native sign-up: `/{tenant}/signup/v1.0/start|challenge|continue`. The email is verified with a code,
/// then the password and the tenant's required attributes are collected, then the user is created.
struct NativeSignUpRoutes: Sendable {
    let support: NativeAuthSupport

    func register(on router: Router<EmulatorRequestContext>) {
        support.post(":tenant/signup/v1.0/start", on: router, start)
        support.post(":tenant/signup/v1.0/challenge", on: router, challenge)
        support.post(":tenant/signup/v1.0/continue", on: router, `continue`)
    }

    private func start(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let types = try support.challengeTypes(form)
        let username = try support.username(form)
        guard support.core.state.index.user(named: username) == nil else { throw .userAlreadyExists }
        let needsPassword = caller.settings.signUpMethod == .emailPassword
        guard types.contains("oob"), !needsPassword || types.contains("password") else {
            return support.redirect("Sign-up needs challenge types the client does not support.", request: request)
        }
        let password = form.nonEmpty("password")
        if let password,
            let problem = caller.settings.passwordPolicy.problem(with: password, username: username, current: nil)
        {
            throw .refusedPassword(problem)
        }
        let attributes = try parseAttributes(form)
        let invalid = invalidAttributes(attributes, settings: caller.settings)
        guard invalid.isEmpty else { throw .attributeValidationFailed(invalid, continuationToken: nil) }
        let flow = NativeFlow(
            kind: .signUp, clientID: caller.client.clientId, tenantID: caller.tenant.id, username: username,
            challengeTypes: types, password: needsPassword ? password : nil, attributes: attributes,
            capabilities: support.capabilities(form), expiresAt: support.core.state.now)
        let token = await support.issue(flow, caller: caller)
        return support.answer([("continuation_token", .string(token))], request: request)
    }

    /// Sends the verification code (again, when asked twice), or asks for the password once the email is verified.
    private func challenge(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (_, flow) = try await support.take(form, kind: .signUp, caller: caller)
        let types =
            form.nonEmpty("challenge_type").map { Set($0.split(separator: " ").map { $0.lowercased() }) }
            ?? flow.challengeTypes
        guard flow.emailVerified else {
            guard types.contains("oob") else {
                return support.redirect("Email verification needs the oob challenge type.", request: request)
            }
            return await support.sendCode(flow, caller: caller, request: request)
        }
        guard flow.stage == .needsPassword else { throw .invalidContinuationToken }
        guard types.contains("password") else { return support.redirect("Sign-up needs a password.", request: request) }
        var next = flow
        next.stage = .passwordChallenge
        let token = await support.issue(next, caller: caller)
        return support.answer(
            [("continuation_token", .string(token)), ("challenge_type", .string("password"))], request: request)
    }

    private func `continue`(_ request: Request, _ caller: NativeAuthSupport.Caller, _ form: FormBody)
        async throws(EntraError) -> Response
    {
        let (token, flow) = try await support.take(form, kind: .signUp, caller: caller)
        var next = flow
        // What the token keeps after an answer the user can correct (valid attributes of a partly invalid set too).
        var retained = flow
        do throws(EntraError) {
            switch (form.nonEmpty("grant_type"), flow.stage) {
            case ("oob", .codeSent):
                try support.verify(code: form.nonEmpty("oob"), flow: &retained)
                next.emailVerified = true
                next.code = nil
            case ("password", .passwordChallenge), ("password", .needsPassword):
                guard let password = form.nonEmpty("password") else { throw .missingParameter("password") }
                if let problem = caller.settings.passwordPolicy.problem(
                    with: password, username: flow.username, current: nil)
                {
                    throw .refusedPassword(problem)
                }
                next.password = password
            case ("attributes", .needsAttributes):
                let attributes = try parseAttributes(form)
                let merged = flow.attributes.merging(attributes) { _, new in new }
                let invalid = invalidAttributes(merged, settings: caller.settings)
                retained.attributes = merged.filter { !invalid.contains($0.key) }
                guard invalid.isEmpty else { throw .attributeValidationFailed(invalid, continuationToken: token) }
                next.attributes = merged
            case (nil, _):
                throw .missingParameter("grant_type")
            default:
                throw .invalidContinuationToken
            }
        } catch {
            if error.error == "invalid_grant" { await support.core.state.restoreContinuation(token, retained) }
            throw error
        }
        return try await advance(next, caller: caller, request: request)
    }

    /// After a step succeeded: ask for what is still missing, or create the user.
    private func advance(_ flow: NativeFlow, caller: NativeAuthSupport.Caller, request: Request)
        async throws(EntraError) -> Response
    {
        var next = flow
        if caller.settings.signUpMethod == .emailPassword, flow.password == nil {
            next.stage = .needsPassword
            throw .credentialRequired(continuationToken: await support.issue(next, caller: caller))
        }
        let missing = caller.settings.signUpAttributes.filter { $0.required && flow.attributes[$0.name] == nil }
        if !missing.isEmpty {
            next.stage = .needsAttributes
            throw .attributesRequired(missing, continuationToken: await support.issue(next, caller: caller))
        }
        let user = makeUser(flow, tenantID: caller.tenant.id)
        guard await support.core.state.addUser(user) else { throw .userAlreadyExists }
        next.stage = .completed(userID: user.id)
        let token = await support.issue(next, caller: caller)
        return support.answer(
            [("continuation_token", .string(token)), ("expires_in", .int(caller.settings.continuationTokenLifetime))],
            request: request)
    }

    private func makeUser(_ flow: NativeFlow, tenantID: String) -> User {
        let a = flow.attributes
        let local = flow.username.split(separator: "@").first.map(String.init) ?? flow.username
        return User(
            id: support.core.state.guid(), tenant: tenantID, userPrincipalName: flow.username, password: flow.password,
            displayName: a["displayName"] ?? local, givenName: a["givenName"], surname: a["surname"],
            jobTitle: a["jobTitle"], mail: flow.username, country: a["country"], city: a["city"])
    }

    /// `attributes`: a JSON object of strings.
    private func parseAttributes(_ form: FormBody) throws(EntraError) -> [String: String] {
        guard let raw = form.nonEmpty("attributes") else { return [:] }
        guard let json = try? JSONValue.parse(Data(raw.utf8)), case .object(let members) = json else {
            throw EntraError(
                error: "invalid_request", code: 90100, message: "attributes parameter is empty or not valid.")
        }
        var out: [String: String] = [:]
        for (name, value) in members {
            switch value {
            case .string(let s): out[name] = s
            case .int(let i): out[name] = String(i)
            case .bool(let b): out[name] = String(b)
            default: out[name] = ""
            }
        }
        return out
    }

    /// Names of given attributes that are unknown to the tenant or fail its rules.
    private func invalidAttributes(_ attributes: [String: String], settings: NativeAuthSettings) -> [String] {
        attributes.keys.sorted().filter { name in
            guard let rule = settings.signUpAttributes.first(where: { $0.name == name }) else { return true }
            return !rule.accepts(attributes[name] ?? "")
        }
    }
}
