import Foundation

/// Where a native sign-up stands after a step. Outcomes the user can act on are cases, not errors.
public enum SignUpResult: Sendable {
    /// The account exists; sign in with the state (no password or code again).
    case completed(SignInAfterSignUpState)
    /// A code was sent to verify the email; submit it (or ask for a new one).
    case codeRequired(SignUpCodeRequiredState, CodeDelivery)
    /// The code was wrong or has expired; submit again or resend.
    case invalidCode(SignUpCodeRequiredState)
    /// The tenant needs a password.
    case passwordRequired(SignUpPasswordRequiredState)
    /// The password breaks the tenant's policy. The state is `nil` when it was given to `signUp`: start again.
    case invalidPassword(PasswordProblem, SignUpPasswordRequiredState?)
    /// The tenant needs these attributes.
    case attributesRequired(SignUpAttributesRequiredState, [RequiredAttribute])
    /// These attributes are unknown or invalid. The state is `nil` when they were given to `signUp`: start again.
    case attributesInvalid([String], SignUpAttributesRequiredState?)
    /// A user with this username exists; sign in instead.
    case userAlreadyExists
    /// The app cannot collect what sign-up needs (its challenge types); use the browser.
    case browserRequired(reason: String)
}

/// What a sign-up carries from step to step.
struct SignUpContext: Sendable {
    let username: String
    let password: String?
    let correlationID: UUID

    /// The same context once the password given up front was used: it is not kept or sent again.
    var withoutPassword: SignUpContext {
        SignUpContext(username: username, password: nil, correlationID: correlationID)
    }
}

/// Sign-up waits for the code sent to the user's email.
public struct SignUpCodeRequiredState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let context: SignUpContext

    /// Submits the code the user received.
    ///
    /// - Throws: ``MSALError`` when the state was already used or expired, and for server and transport failures.
    public func submitCode(_ code: String) async throws -> SignUpResult {
        try await engine.signUpContinue(.oob(code: code), token: continuationToken, context: context)
    }

    /// Sends a new code.
    public func resendCode() async throws -> SignUpResult {
        try await engine.signUpChallenge(continuationToken, context: context)
    }
}

/// Sign-up waits for the password.
public struct SignUpPasswordRequiredState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let context: SignUpContext

    /// Submits the password.
    ///
    /// - Throws: ``MSALError`` when the state was already used or expired, and for server and transport failures.
    public func submitPassword(_ password: String) async throws -> SignUpResult {
        try await engine.signUpContinue(.password(password), token: continuationToken, context: context)
    }
}

/// Sign-up waits for the tenant's required attributes.
public struct SignUpAttributesRequiredState: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let context: SignUpContext

    /// Submits the required attributes.
    ///
    /// - Parameter attributes: user attributes by name, e.g. `["displayName": "Jane", "country": "NZ"]`.
    /// - Throws: ``MSALError`` when the state was already used or expired, and for server and transport failures.
    public func submitAttributes(_ attributes: [String: AttributeValue]) async throws -> SignUpResult {
        try await engine.signUpContinue(.attributes(attributes), token: continuationToken, context: context)
    }
}

/// A finished sign-up: sign the new user in without asking again.
public struct SignInAfterSignUpState: Sendable {
    let flow: SignInAfter

    /// Signs the new user in.
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
    func signUp(username: String, password: String?, attributes: [String: AttributeValue], correlationID: UUID?)
        async throws -> SignUpResult
    {
        let context = SignUpContext(
            username: username, password: password, correlationID: correlationID ?? core.correlationIDs.next())
        core.log.info("native sign-up started", pii: ["username": username])
        return try await step(
            .signUpStart(username: username, password: password, attributes: attributes),
            correlationID: context.correlationID, correctable: { userCorrectable($0, token: nil, context: context) },
            next: { try await signUpChallenge(try $0.requireContinuationToken(), context: context) })
    }

    /// Sends the verification code, or asks for the password once the email is verified.
    func signUpChallenge(_ continuationToken: String, context: SignUpContext) async throws -> SignUpResult {
        try await step(.signUpChallenge(continuationToken: continuationToken), correlationID: context.correlationID) {
            answer in
            let token = try answer.requireContinuationToken()
            switch answer.challengeType?.lowercased() {
            case "oob":
                return .codeRequired(
                    SignUpCodeRequiredState(engine: self, continuationToken: token, context: context), answer.delivery)
            case "password":
                let state = SignUpPasswordRequiredState(
                    engine: self, continuationToken: token, context: context.withoutPassword)
                guard let password = context.password else { return .passwordRequired(state) }
                return try await state.submitPassword(password)
            default:
                throw MSALError.internal(
                    .invalidResponse, "The sign-up challenge answer has an unknown challenge_type.")
            }
        }
    }

    func signUpContinue(_ proof: NativeAuthRequest.SignUpProof, token: String, context: SignUpContext) async throws
        -> SignUpResult
    {
        let answer = try await send(
            .signUpContinue(continuationToken: token, proof), correlationID: context.correlationID)
        guard let failure = answer.failure else {
            core.log.info("native sign-up finished", pii: ["username": context.username])
            return .completed(
                SignInAfterSignUpState(
                    flow: SignInAfter(
                        engine: self, continuationToken: try answer.requireContinuationToken(),
                        username: context.username, correlationID: context.correlationID)))
        }
        switch failure.error {
        case "credential_required":
            guard let next = failure.continuationToken else { break }
            return try await signUpChallenge(next, context: context)
        case "attributes_required":
            guard let next = failure.continuationToken else { break }
            return .attributesRequired(
                SignUpAttributesRequiredState(engine: self, continuationToken: next, context: context),
                failure.requiredAttributes)
        default:
            if let result = userCorrectable(failure, token: token, context: context) { return result }
        }
        throw error(failure, correlationID: context.correlationID)
    }

    /// Failures that keep the flow going: wrong code, refused password, invalid attributes, an existing user.
    private func userCorrectable(_ failure: NativeAuthAnswer.Failure, token: String?, context: SignUpContext)
        -> SignUpResult?
    {
        if failure.error == "user_already_exists" { return .userAlreadyExists }
        if let problem = failure.passwordProblem {
            return .invalidPassword(
                problem,
                token.map { SignUpPasswordRequiredState(engine: self, continuationToken: $0, context: context) })
        }
        if failure.isInvalidCode {
            return token.map {
                .invalidCode(SignUpCodeRequiredState(engine: self, continuationToken: $0, context: context))
            }
        }
        guard failure.error == "invalid_grant", failure.subError == "attribute_validation_failed" else { return nil }
        let next = failure.continuationToken ?? token
        return .attributesInvalid(
            failure.invalidAttributes,
            next.map { SignUpAttributesRequiredState(engine: self, continuationToken: $0, context: context) })
    }
}
