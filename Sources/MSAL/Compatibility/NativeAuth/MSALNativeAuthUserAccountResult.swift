import Foundation

/// A signed-in native-auth user (MSAL's `MSALNativeAuthUserAccountResult`).
public final class MSALNativeAuthUserAccountResult: Sendable {
    let user: NativeAuthUserAccount

    init(_ user: NativeAuthUserAccount) { self.user = user }

    /// The signed-in account.
    public var account: MSALAccount { MSALAccount(user.account) }
    /// The raw ID token of the sign-in, when one was issued.
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
        let (claims, correlationID) = (parameters.claimsRequest?.jsonString(), parameters.correlationId)
        let fail: NativeDelegates.Failure = {
            delegate.onAccessTokenRetrieveError(
                error: RetrieveAccessTokenError(type: .generalError, MSALError.internal(.unexpected, $0)))
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                let result = try await user.getAccessToken(
                    scopes: scopes, forceRefresh: forceRefresh, claims: claims, correlationID: correlationID)
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
    /// The access token, to send as a bearer token.
    public let accessToken: String
    /// The scopes the token was granted for.
    public let scopes: [String]
    /// When the access token expires.
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
    /// Receives the failure.
    func onAccessTokenRetrieveError(error: RetrieveAccessTokenError)
    /// Receives the token.
    func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult)
}

extension CredentialsDelegate {
    /// Default: reports that the method is not implemented, as a general error to
    /// ``onAccessTokenRetrieveError(error:)``.
    public func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult) {
        NativeDelegates.lacks("onAccessTokenRetrieveCompleted")
    }
}
