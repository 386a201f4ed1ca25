import Foundation

/// What offering a contact for a new strong authentication method led to.
public enum RegisterStrongAuthChallengeResult: Sendable {
    /// A code was sent to the contact; submit it.
    case verificationRequired(RegisterStrongAuthVerificationRequiredState, CodeDelivery)
    /// The contact was already verified (the user's own email): the method is registered and the user signed in.
    case completed(NativeAuthUserAccount)
    /// The contact is not a valid email address or phone number; offer another.
    case invalidContact(RegisterStrongAuthState)
    /// Sign in through the browser.
    case browserRequired(reason: String)
}

/// What submitting the code sent to a new contact led to.
public enum RegisterStrongAuthSubmitChallengeResult: Sendable {
    /// The method is registered and the user signed in.
    case completed(NativeAuthUserAccount)
    /// The code was wrong or has expired; submit again, or offer the contact again for a new one.
    case invalidCode(RegisterStrongAuthVerificationRequiredState)
    /// Sign in through the browser.
    case browserRequired(reason: String)
}

/// The first factor passed but the user has no strong authentication method: they register one now, an email
/// address or a phone number, proven with a code.
public struct RegisterStrongAuthState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let context: SignInContext

    /// The correlation id of the sign-in's requests.
    public var correlationID: UUID { context.correlationID }

    /// Sends a code to `verificationContact` through `authMethod` (one of the kinds the result listed: its channel,
    /// `email` or `sms`, says which contact is expected).
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for an empty contact; when the state was already used or expired;
    ///   server and transport failures.
    public func challengeAuthMethod(_ authMethod: AuthMethod, verificationContact: String) async throws
        -> RegisterStrongAuthChallengeResult
    {
        try await engine.registerChallenge(
            continuationToken, method: authMethod, contact: verificationContact, context: context, retry: self)
    }
}

/// A code was sent to the contact being registered.
public struct RegisterStrongAuthVerificationRequiredState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let context: SignInContext

    /// The correlation id of the sign-in's requests.
    public var correlationID: UUID { context.correlationID }

    /// Submits the code sent to the contact.
    ///
    /// - Throws: ``MSALError`` when the state was already used or expired, and for server and transport failures.
    public func submitChallenge(_ code: String) async throws -> RegisterStrongAuthSubmitChallengeResult {
        try await engine.step(
            .registerContinue(continuationToken: continuationToken, code: code), correlationID: correlationID,
            correctable: { $0.isInvalidCode ? .invalidCode(self) : nil },
            next: { answer in
                try await engine.signInAfterRegistration(try answer.requireContinuationToken(), context: context)
            })
    }

    /// Offers a contact again (the same for a new code, or another), through `authMethod`.
    public func challengeAuthMethod(_ authMethod: AuthMethod, verificationContact: String) async throws
        -> RegisterStrongAuthChallengeResult
    {
        try await engine.registerChallenge(
            continuationToken, method: authMethod, contact: verificationContact, context: context,
            retry: RegisterStrongAuthState(engine: engine, continuationToken: continuationToken, context: context))
    }
}

extension NativeAuthEngine {
    /// After `registration_required`: the kinds of method the user may register, and the state to offer a contact.
    func registrationRequired(_ continuationToken: String, context: SignInContext) async throws -> SignInResult {
        try await step(
            .registerIntrospect(continuationToken: continuationToken), correlationID: context.correlationID
        ) { answer in
            let state = RegisterStrongAuthState(
                engine: self, continuationToken: try answer.requireContinuationToken(), context: context)
            return .registrationRequired(state, methods: answer.methods)
        }
    }

    func registerChallenge(
        _ continuationToken: String, method: AuthMethod, contact: String, context: SignInContext,
        retry: RegisterStrongAuthState
    ) async throws -> RegisterStrongAuthChallengeResult {
        let contact = contact.trimmingCharacters(in: .whitespaces)
        guard !contact.isEmpty else {
            throw MSALError.internal(.invalidParameter, "The verification contact is empty.")
        }
        return try await step(
            .registerChallenge(continuationToken: continuationToken, channel: method.channel, target: contact),
            correlationID: context.correlationID,
            correctable: { failure in
                // 901001: not a valid contact. The platform spends the continuation token only on success.
                failure.error == "invalid_request" && failure.firstCode == 901001 ? .invalidContact(retry) : nil
            },
            next: { answer in
                let token = try answer.requireContinuationToken()
                if answer.challengeType?.lowercased() == "preverified" {
                    let proven = try await send(
                        .registerContinue(continuationToken: token, code: nil), correlationID: context.correlationID)
                    if let failure = proven.failure { throw error(failure, correlationID: context.correlationID) }
                    return try await signInAfterRegistration(try proven.requireContinuationToken(), context: context)
                }
                let state = RegisterStrongAuthVerificationRequiredState(
                    engine: self, continuationToken: token, context: context)
                return .verificationRequired(state, answer.delivery)
            })
    }

    /// Signs in with the continuation token a registration answered: a registration counts as the second factor,
    /// so anything but tokens or a browser is a broken answer.
    ///
    /// - Throws: ``MSALError`` `invalidResponse` when the platform asks for more.
    func signInAfterRegistration<Outcome: SignedInOutcome>(_ continuationToken: String, context: SignInContext)
        async throws -> Outcome
    {
        switch try await signInAfter(continuationToken, context: context) {
        case .completed(let account): return .completed(account)
        case .browserRequired(let reason): return .browserRequired(reason: reason)
        default:
            throw MSALError.internal(
                .invalidResponse, "The identity platform asked for more after a strong method was registered.")
        }
    }
}
