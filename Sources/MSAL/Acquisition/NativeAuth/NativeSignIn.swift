import Foundation

/// Where a native sign-in stands after a step. Outcomes the user can act on are cases, not errors.
public enum SignInResult: Sendable {
    /// Signed in; tokens are cached.
    case completed(NativeAuthUserAccount)
    /// A one-time code was sent; submit it (or ask for a new one).
    case codeRequired(SignInCodeRequiredState, CodeDelivery)
    /// The user has a password; submit it.
    case passwordRequired(SignInPasswordRequiredState)
    /// The code was wrong or has expired; submit again or resend.
    case invalidCode(SignInCodeRequiredState)
    /// The password was wrong; submit again.
    case invalidPassword(SignInPasswordRequiredState)
    /// No user with this username in the tenant.
    case userNotFound
    /// The first factor was right and the user must pass a second one: choose one of their methods and ask for a
    /// code (``AwaitingMFAState/requestChallenge(authMethod:)``).
    case mfaRequired(AwaitingMFAState, methods: [AuthMethod])
    /// The first factor was right but the user has no strong authentication method yet: register one
    /// (``RegisterStrongAuthState/challengeAuthMethod(_:verificationContact:)``).
    case registrationRequired(RegisterStrongAuthState, methods: [AuthMethod])
    /// The app cannot collect what the user needs (its challenge types or capabilities); sign in through the
    /// browser.
    case browserRequired(reason: String)
}

/// What a sign-in carries from step to step.
struct SignInContext: Sendable {
    let username: String
    let password: String?
    let scopes: [String]
    /// A claims request for the token request.
    var claims: String? = nil
    let correlationID: UUID

    /// The same context once the password given up front was used: it is not kept or sent again.
    var withoutPassword: SignInContext {
        SignInContext(username: username, password: nil, scopes: scopes, claims: claims, correlationID: correlationID)
    }
}

/// The sign-in waits for the one-time code the user received.
public struct SignInCodeRequiredState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let context: SignInContext

    /// The correlation id of the sign-in's requests.
    public var correlationID: UUID { context.correlationID }

    /// Submits the code the user received.
    ///
    /// - Returns: `.completed`, or `.invalidCode` with a state to try again.
    /// - Throws: ``MSALError`` when the state was already used or expired (`invalid_request`, `expired_token`),
    ///   and for server and transport failures.
    public func submitCode(_ code: String) async throws -> SignInResult {
        try await engine.signInToken(
            .oob(continuationToken: continuationToken, code: code), context: context, retry: .code(self))
    }

    /// Sends a new code.
    public func resendCode() async throws -> SignInResult {
        try await engine.signInChallenge(continuationToken, context: context)
    }
}

/// The sign-in waits for the user's password.
public struct SignInPasswordRequiredState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let context: SignInContext

    /// The correlation id of the sign-in's requests.
    public var correlationID: UUID { context.correlationID }

    /// Submits the user's password.
    ///
    /// - Returns: `.completed`, or `.invalidPassword` with a state to try again.
    /// - Throws: ``MSALError`` when the state was already used or expired, and for server and transport failures.
    public func submitPassword(_ password: String) async throws -> SignInResult {
        try await engine.signInToken(
            .password(continuationToken: continuationToken, username: context.username, password: password),
            context: context, retry: .password(self))
    }
}

extension NativeAuthEngine {
    /// Which state a user-correctable failure hands back.
    enum SignInRetry {
        case code(SignInCodeRequiredState)
        case password(SignInPasswordRequiredState)
    }

    func signIn(username: String, password: String?, scopes: [String], claims: String?, correlationID: UUID?)
        async throws -> SignInResult
    {
        let context = SignInContext(
            username: username, password: password, scopes: scopes, claims: claims,
            correlationID: correlationID ?? core.correlationIDs.next())
        core.log.info("native sign-in started", pii: ["username": username])
        let answer = try await send(.signInInitiate(username: username), correlationID: context.correlationID)
        if let failure = answer.failure {
            if failure.error == "user_not_found" || failure.firstCode == 50034 { return .userNotFound }
            throw error(failure, correlationID: context.correlationID)
        }
        if answer.isRedirect { return .browserRequired(reason: answer.redirectMessage) }
        return try await signInChallenge(try answer.requireContinuationToken(), context: context)
    }

    /// Asks how the user proves who they are; a password given up front is submitted at once.
    func signInChallenge(_ continuationToken: String, context: SignInContext) async throws -> SignInResult {
        let answer = try await send(
            .signInChallenge(continuationToken: continuationToken), correlationID: context.correlationID)
        if let failure = answer.failure { throw error(failure, correlationID: context.correlationID) }
        if answer.isRedirect { return .browserRequired(reason: answer.redirectMessage) }
        let token = try answer.requireContinuationToken()
        switch answer.challengeType?.lowercased() {
        case "password":
            let state = SignInPasswordRequiredState(
                engine: self, continuationToken: token, context: context.withoutPassword)
            guard let password = context.password else { return .passwordRequired(state) }
            return try await state.submitPassword(password)
        case "oob":
            if context.password != nil {
                core.log.warning("the user signs in with a code; the password given is not used")
            }
            return .codeRequired(
                SignInCodeRequiredState(engine: self, continuationToken: token, context: context.withoutPassword),
                answer.delivery)
        default:
            throw MSALError.internal(.invalidResponse, "The challenge answer has an unknown challenge_type.")
        }
    }

    func signInToken(_ grant: NativeAuthRequest.SignInGrant, context: SignInContext, retry: SignInRetry)
        async throws -> SignInResult
    {
        let answer = try await send(
            .signInToken(grant, scopes: context.scopes, claims: context.claims), correlationID: context.correlationID)
        if let failure = answer.failure {
            switch (failure.error, failure.subError, failure.firstCode, retry) {
            case ("invalid_grant", _, 50126, .password(let state)): return .invalidPassword(state)
            case ("invalid_grant", "invalid_oob_value", _, .code(let state)): return .invalidCode(state)
            case ("user_not_found", _, _, _), ("invalid_grant", _, 50034, _): return .userNotFound
            default: break
            }
        }
        return try await firstFactorPassed(answer, grant: grant, context: context)
    }

    /// Signs in with the continuation token a finished sign-up or password reset left.
    func signInAfter(_ continuationToken: String, context: SignInContext) async throws -> SignInResult {
        let grant = NativeAuthRequest.SignInGrant.continuationToken(continuationToken, username: context.username)
        let answer = try await send(
            .signInToken(grant, scopes: context.scopes, claims: context.claims), correlationID: context.correlationID)
        return try await firstFactorPassed(answer, grant: grant, context: context)
    }

    /// The token endpoint's answer to a first factor: tokens, a second factor or a method to register (each after
    /// asking which methods there are), the browser, or an error.
    private func firstFactorPassed(
        _ answer: NativeAuthAnswer, grant: NativeAuthRequest.SignInGrant, context: SignInContext
    ) async throws -> SignInResult {
        if let failure = answer.failure {
            guard failure.error == "invalid_grant", let token = failure.continuationToken else {
                throw error(failure, correlationID: context.correlationID)
            }
            switch failure.subError {
            case "mfa_required":
                core.log.info("native sign-in needs a second factor")
                return try await awaitingMFA(token, context: context)
            case "registration_required":
                core.log.info("native sign-in needs a strong authentication method registered")
                return try await registrationRequired(token, context: context)
            default:
                throw error(failure, correlationID: context.correlationID)
            }
        }
        if answer.isRedirect { return .browserRequired(reason: answer.redirectMessage) }
        return .completed(
            try await signedIn(
                answer, grant: grant.grantType, scopes: context.scopes, correlationID: context.correlationID))
    }
}
