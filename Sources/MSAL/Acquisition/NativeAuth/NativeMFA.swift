import Foundation

/// What asking for an MFA code led to.
public enum MFARequestChallengeResult: Sendable {
    /// A code was sent; submit it.
    case verificationRequired(MFARequiredState, CodeDelivery)
    /// The identity platform wants the user to choose a method first.
    case selectionRequired(MFARequiredState, methods: [AuthMethod])
    /// The method cannot be used here; sign in through the browser.
    case browserRequired(reason: String)
}

/// What submitting an MFA code led to.
public enum MFASubmitChallengeResult: Sendable {
    /// Signed in; tokens are cached.
    case completed(NativeAuthUserAccount)
    /// The code was wrong or has expired; submit again, or ask for a new one.
    case invalidCode(MFARequiredState)
    /// Sign in through the browser.
    case browserRequired(reason: String)
}

/// The first factor passed; the user must now prove a second one with one of their methods.
public struct AwaitingMFAState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let context: SignInContext

    /// The correlation id of the sign-in's requests.
    public var correlationID: UUID { context.correlationID }

    /// Sends a code through `authMethod` (one of the methods the result listed), or through the user's default
    /// method when `nil`.
    ///
    /// - Throws: ``MSALError`` when the state was already used or expired (`invalid_request`, `expired_token`), a
    ///   method the platform does not know, and server and transport failures.
    public func requestChallenge(authMethod: AuthMethod? = nil) async throws -> MFARequestChallengeResult {
        try await engine.mfaChallenge(continuationToken, method: authMethod, context: context)
    }
}

/// A second-factor code was sent (or a method must be chosen); submit the code, or ask again.
public struct MFARequiredState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let context: SignInContext

    /// The correlation id of the sign-in's requests.
    public var correlationID: UUID { context.correlationID }

    /// Sends a new code, through `authMethod` or the default method.
    public func requestChallenge(authMethod: AuthMethod? = nil) async throws -> MFARequestChallengeResult {
        try await engine.mfaChallenge(continuationToken, method: authMethod, context: context)
    }

    /// Submits the code the user received.
    ///
    /// - Returns: `.completed`, or `.invalidCode` with a state to try again.
    /// - Throws: ``MSALError`` when the state was already used or expired, and for server and transport failures.
    public func submitChallenge(_ code: String) async throws -> MFASubmitChallengeResult {
        let grant = NativeAuthRequest.SignInGrant.mfaOOB(continuationToken: continuationToken, code: code)
        return try await engine.step(
            .signInToken(grant, scopes: context.scopes, claims: context.claims), correlationID: correlationID,
            correctable: { $0.isInvalidCode ? .invalidCode(self) : nil },
            next: { answer in
                .completed(
                    try await engine.signedIn(
                        answer, grant: grant.grantType, scopes: context.scopes, correlationID: correlationID))
            })
    }
}

extension NativeAuthEngine {
    /// After `mfa_required`: the user's methods (`introspect`), and the state to ask for a code.
    func awaitingMFA(_ continuationToken: String, context: SignInContext) async throws -> SignInResult {
        try await step(.signInIntrospect(continuationToken: continuationToken), correlationID: context.correlationID) {
            answer in
            guard !answer.methods.isEmpty else {
                throw MSALError.internal(.invalidResponse, "The identity platform listed no MFA method for the user.")
            }
            let state = AwaitingMFAState(
                engine: self, continuationToken: try answer.requireContinuationToken(), context: context)
            return .mfaRequired(state, methods: answer.methods)
        }
    }

    func mfaChallenge(_ continuationToken: String, method: AuthMethod?, context: SignInContext) async throws
        -> MFARequestChallengeResult
    {
        try await step(
            .signInChallenge(continuationToken: continuationToken, methodID: method?.id),
            correlationID: context.correlationID,
            correctable: { failure in
                // No default method: the user chooses among those `introspect` lists.
                guard failure.subError == "introspect_required", let token = failure.continuationToken else {
                    return nil
                }
                let listed = try await send(
                    .signInIntrospect(continuationToken: token), correlationID: context.correlationID)
                if let failure = listed.failure { throw error(failure, correlationID: context.correlationID) }
                let state = MFARequiredState(
                    engine: self, continuationToken: try listed.requireContinuationToken(), context: context)
                return .selectionRequired(state, methods: listed.methods)
            },
            next: { answer in
                let state = MFARequiredState(
                    engine: self, continuationToken: try answer.requireContinuationToken(), context: context)
                return .verificationRequired(state, answer.delivery)
            })
    }
}
