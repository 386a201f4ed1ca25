import Foundation

/// A native-auth step's result: whatever the flow, it can send the user to the browser.
protocol NativeAuthOutcome: Sendable {
    /// The app cannot collect what the identity platform asks for; `reason` says why.
    static func browserRequired(reason: String) -> Self
}

/// A result that can end with the user signed in.
protocol SignedInOutcome: NativeAuthOutcome {
    /// Signed in; tokens are cached.
    static func completed(_ account: NativeAuthUserAccount) -> Self
}

extension SignInResult: SignedInOutcome {}
extension SignUpResult: NativeAuthOutcome {}
extension ResetPasswordResult: NativeAuthOutcome {}
extension MFARequestChallengeResult: NativeAuthOutcome {}
extension MFASubmitChallengeResult: SignedInOutcome {}
extension RegisterStrongAuthChallengeResult: SignedInOutcome {}
extension RegisterStrongAuthSubmitChallengeResult: SignedInOutcome {}

extension NativeAuthEngine {
    /// Sends `step` and reads its answer in the order every step keeps: a failure is the result `correctable` makes
    /// of it (one the user can act on, or a further step) or else an error; a redirect is `browserRequired`; any
    /// other answer goes to `next`.
    ///
    /// - Throws: ``MSALError`` for a failure `correctable` does not take, and what `send` and `next` throw.
    func step<Outcome: NativeAuthOutcome>(
        _ step: NativeAuthRequest.Step, correlationID: UUID,
        correctable: (NativeAuthAnswer.Failure) async throws -> Outcome? = { _ in nil },
        next: (NativeAuthAnswer) async throws -> Outcome
    ) async throws -> Outcome {
        let answer = try await send(step, correlationID: correlationID)
        if let failure = answer.failure {
            if let outcome = try await correctable(failure) { return outcome }
            throw error(failure, correlationID: correlationID)
        }
        if answer.isRedirect { return .browserRequired(reason: answer.redirectMessage) }
        return try await next(answer)
    }
}
