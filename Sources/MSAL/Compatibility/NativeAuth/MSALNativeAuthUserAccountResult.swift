import Foundation

/// A signed-in native-auth user (MSAL's `MSALNativeAuthUserAccountResult`).
public final class MSALNativeAuthUserAccountResult: Sendable {
    let user: NativeAuthUserAccount

    init(_ user: NativeAuthUserAccount) { self.user = user }

    public var account: MSALAccount { MSALAccount(user.account) }
    public var idToken: String? { user.idToken }

    /// An access token for `scopes` (the sign-in's when `nil`); the outcome goes to `delegate` on the main actor.
    public func getAccessToken(
        scopes: [String]? = nil, forceRefresh: Bool = false, correlationId: UUID? = nil,
        delegate: any CredentialsDelegate
    ) {
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = scopes
        parameters.forceRefresh = forceRefresh
        parameters.correlationId = correlationId
        getAccessToken(parameters: parameters, delegate: delegate)
    }

    /// An access token as `parameters` say; the outcome goes to `delegate` on the main actor.
    public func getAccessToken(parameters: MSALNativeAuthGetAccessTokenParameters, delegate: any CredentialsDelegate) {
        let (user, scopes, forceRefresh) = (user, parameters.scopes ?? [], parameters.forceRefresh)
        NativeDelegates.run {
            do {
                let result = try await user.getAccessToken(scopes: scopes, forceRefresh: forceRefresh)
                await delegate.onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult(result))
            } catch {
                await delegate.onAccessTokenRetrieveError(error: RetrieveAccessTokenError(type: .generalError, error))
            }
        }
    }

    /// Forgets this user's tokens for the app; no network call. Blocks until the cache answers.
    public func signOut() {
        let user = user
        _ = try? Completion.wait { try await user.signOut() }
    }
}

/// An access token from ``MSALNativeAuthUserAccountResult/getAccessToken(parameters:delegate:)``.
public final class MSALNativeAuthTokenResult: Sendable {
    public let accessToken: String
    public let scopes: [String]
    public let expiresOn: Date?
    /// Only when asked for (not on Linux).
    public let refreshToken: String? = nil

    init(_ result: AuthenticationResult) {
        accessToken = result.accessToken
        scopes = result.scopes
        expiresOn = result.expiresOn
    }
}

/// Receives the outcome of ``MSALNativeAuthUserAccountResult/getAccessToken(parameters:delegate:)``.
@MainActor public protocol CredentialsDelegate: AnyObject, Sendable {
    func onAccessTokenRetrieveError(error: RetrieveAccessTokenError)
    func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult)
}
