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
        return try await step(
            .signInInitiate(username: username), correlationID: context.correlationID,
            correctable: { $0.error == "user_not_found" || $0.firstCode == 50034 ? .userNotFound : nil },
            next: { try await signInChallenge(try $0.requireContinuationToken(), context: context) })
    }

    /// Asks how the user proves who they are; a password given up front is submitted at once.
    func signInChallenge(_ continuationToken: String, context: SignInContext) async throws -> SignInResult {
        try await step(.signInChallenge(continuationToken: continuationToken), correlationID: context.correlationID) {
            answer in
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
    }

    func signInToken(_ grant: NativeAuthRequest.SignInGrant, context: SignInContext, retry: SignInRetry)
        async throws -> SignInResult
    {
        try await firstFactor(grant, context: context) { failure in
            switch (failure.error, failure.firstCode, retry) {
            case ("invalid_grant", 50126, .password(let state)): return .invalidPassword(state)
            case (_, _, .code(let state)) where failure.isInvalidCode: return .invalidCode(state)
            case ("user_not_found", _, _), ("invalid_grant", 50034, _): return .userNotFound
            default: return nil
            }
        }
    }

    /// Signs in with the continuation token a finished sign-up or password reset left.
    func signInAfter(_ continuationToken: String, context: SignInContext) async throws -> SignInResult {
        try await firstFactor(.continuationToken(continuationToken, username: context.username), context: context)
    }

    /// Sends a first factor to the token endpoint: tokens, a failure `correctable` takes, a second factor or a method
    /// to register (each after asking which methods there are), the browser, or an error.
    private func firstFactor(
        _ grant: NativeAuthRequest.SignInGrant, context: SignInContext,
        correctable: (NativeAuthAnswer.Failure) -> SignInResult? = { _ in nil }
    ) async throws -> SignInResult {
        try await step(
            .signInToken(grant, scopes: context.scopes, claims: context.claims), correlationID: context.correlationID,
            correctable: { failure in
                if let result = correctable(failure) { return result }
                guard failure.error == "invalid_grant", let token = failure.continuationToken else { return nil }
                switch failure.subError {
                case "mfa_required":
                    core.log.info("native sign-in needs a second factor")
                    return try await awaitingMFA(token, context: context)
                case "registration_required":
                    core.log.info("native sign-in needs a strong authentication method registered")
                    return try await registrationRequired(token, context: context)
                default:
                    return nil
                }
            },
            next: { answer in
                .completed(
                    try await signedIn(
                        answer, grant: grant.grantType, scopes: context.scopes, correlationID: context.correlationID))
            })
    }
}
