import Foundation

/// Where a native password reset stands after a step. Outcomes the user can act on are cases, not errors.
public enum ResetPasswordResult: Sendable {
    /// The password is changed; sign in with the state (no password again).
    case completed(SignInAfterResetPasswordState)
    /// A code was sent to the user's email; submit it (or ask for a new one).
    case codeRequired(ResetPasswordCodeRequiredState, CodeDelivery)
    /// The code was wrong or has expired; submit again or resend.
    case invalidCode(ResetPasswordCodeRequiredState)
    /// The code is verified; submit the new password.
    case newPasswordRequired(ResetPasswordRequiredState)
    /// The new password breaks the tenant's policy; submit another.
    case invalidPassword(PasswordProblem, ResetPasswordRequiredState)
    /// No user with this username in the tenant.
    case userNotFound
    /// The user signs in with email codes only and has no password to reset.
    case userHasNoPassword
    /// The app cannot collect what the reset needs (its challenge types); use the browser.
    case browserRequired(reason: String)
}

/// The password reset waits for the code sent to the user's email.
public struct ResetPasswordCodeRequiredState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let username: String
    let correlationID: UUID

    /// Submits the code the user received.
    ///
    /// - Throws: ``MSALError`` when the state was already used or expired, and for server and transport failures.
    public func submitCode(_ code: String) async throws -> ResetPasswordResult {
        let answer = try await engine.send(
            .resetContinue(continuationToken: continuationToken, code: code), correlationID: correlationID)
        if let failure = answer.failure {
            guard failure.isInvalidCode else { throw engine.error(failure, correlationID: correlationID) }
            return .invalidCode(self)
        }
        return .newPasswordRequired(
            ResetPasswordRequiredState(
                engine: engine, continuationToken: try answer.requireContinuationToken(), username: username,
                correlationID: correlationID))
    }

    /// Sends a new code.
    public func resendCode() async throws -> ResetPasswordResult {
        try await engine.resetChallenge(continuationToken, username: username, correlationID: correlationID)
    }
}

/// The password reset waits for the new password.
public struct ResetPasswordRequiredState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let username: String
    let correlationID: UUID

    /// Submits the new password and waits (at most five polls, each after `poll_interval` seconds, at most 10)
    /// until the identity platform applied it; polls use the submit answer's token, as MSAL does.
    ///
    /// - Throws: ``MSALError`` when the state was already used or expired, when the reset failed or did
    ///   not finish in five polls, and for server and transport failures.
    public func submitPassword(_ password: String) async throws -> ResetPasswordResult {
        let answer = try await engine.send(
            .resetSubmit(continuationToken: continuationToken, newPassword: password), correlationID: correlationID)
        if let failure = answer.failure {
            guard let problem = failure.passwordProblem else {
                throw engine.error(failure, correlationID: correlationID)
            }
            return .invalidPassword(problem, self)
        }
        let token = try answer.requireContinuationToken()
        let interval = min(max(answer.pollInterval ?? 2, 1), 10)
        for _ in 0..<5 {
            try await engine.core.settings.sleep(.seconds(interval))
            let poll = try await engine.send(.resetPoll(continuationToken: token), correlationID: correlationID)
            if let failure = poll.failure { throw engine.error(failure, correlationID: correlationID) }
            switch poll.status?.lowercased() {
            case "succeeded":
                let token = try poll.requireContinuationToken()
                engine.core.log.info("native password reset finished", pii: ["username": username])
                return .completed(
                    SignInAfterResetPasswordState(
                        flow: SignInAfter(
                            engine: engine, continuationToken: token, username: username,
                            correlationID: correlationID)))
            case "in_progress", "not_started":
                continue
            default:
                throw MSALError(
                    .serverError, internalCode: .unhandledResponse, "The password reset failed.",
                    correlationID: correlationID)
            }
        }
        throw MSALError(
            .serverError, internalCode: .timedOut, "The password reset did not finish after five polls.",
            correlationID: correlationID)
    }
}

/// A finished password reset: sign the user in without asking again.
public struct SignInAfterResetPasswordState: Sendable {
    let flow: SignInAfter

    /// Signs the user in without asking for the password again.
    ///
    /// - Parameters:
    ///   - scopes: scopes besides `openid offline_access profile`.
    ///   - claims: a claims request (JSON) for the token request.
    /// - Throws: ``MSALError`` when the state was already used or expired, and for server and transport failures.
    public func signIn(scopes: [String] = [], claims: String? = nil) async throws -> SignInResult {
        try await flow.signIn(scopes: scopes, claims: claims)
    }
}

extension NativeAuthEngine {
    func resetPassword(username: String, correlationID: UUID?) async throws -> ResetPasswordResult {
        let correlationID = correlationID ?? core.correlationIDs.next()
        core.log.info("native password reset started", pii: ["username": username])
        return try await step(
            .resetStart(username: username), correlationID: correlationID,
            correctable: { failure in
                if failure.error == "user_not_found" { return .userNotFound }
                if failure.error == "invalid_request", failure.firstCode == 500222 { return .userHasNoPassword }
                return nil
            },
            next: {
                try await resetChallenge(
                    try $0.requireContinuationToken(), username: username, correlationID: correlationID)
            })
    }

    func resetChallenge(_ continuationToken: String, username: String, correlationID: UUID) async throws
        -> ResetPasswordResult
    {
        try await step(.resetChallenge(continuationToken: continuationToken), correlationID: correlationID) { answer in
            guard answer.challengeType?.lowercased() == "oob" else {
                throw MSALError.internal(.invalidResponse, "The password reset challenge is not an email code.")
            }
            let state = ResetPasswordCodeRequiredState(
                engine: self, continuationToken: try answer.requireContinuationToken(),
                username: username, correlationID: correlationID)
            return .codeRequired(state, answer.delivery)
        }
    }
}
