import Foundation

/// The sign-in a finished sign-up or password reset leaves: its continuation token signs the user it named in
/// without asking again. ``SignInAfterSignUpState`` and ``SignInAfterResetPasswordState`` hold one.
struct SignInAfter: Sendable {
    let engine: NativeAuthEngine
    let continuationToken: String
    let username: String
    let correlationID: UUID

    /// Signs the user in for `scopes` (besides `openid offline_access profile`), with `claims` in the token request.
    func signIn(scopes: [String], claims: String?) async throws -> SignInResult {
        try await engine.signInAfter(
            continuationToken,
            context: SignInContext(
                username: username, password: nil, scopes: scopes, claims: claims, correlationID: correlationID))
    }
}
