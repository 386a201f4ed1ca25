import Foundation

/// What the app's screens can do beyond its challenge types (MSAL's `MSALNativeAuthCapabilities`): `.mfaRequired`,
/// `.registrationRequired`.
public typealias MSALNativeAuthCapabilities = NativeAuthCapabilities

/// The challenge types an app can present (MSAL's `MSALNativeAuthChallengeTypes`): `.OOB`, `.password`; `redirect`
/// is always added.
public typealias MSALNativeAuthChallengeTypes = NativeAuthChallengeTypes

extension NativeAuthChallengeTypes {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// One-time passcodes sent by email (`oob`), by MSAL's name.
    public static let OOB = oob
}

/// The configuration of a native-auth app: a client on an External ID (`ciamlogin.com`) authority.
public final class MSALNativeAuthPublicClientApplicationConfig: MSALPublicClientApplicationConfig, @unchecked Sendable {
    /// The challenge types the app's screens can present.
    public let challengeTypes: MSALNativeAuthChallengeTypes
    /// Whether the app's screens run MFA and register strong authentication methods; without them such users get
    /// `browserRequired`.
    public var capabilities: MSALNativeAuthCapabilities = []

    /// A configuration for the app `clientId` on an External ID authority.
    ///
    /// - Parameters:
    ///   - clientId: the application (client) id from the app registration.
    ///   - authority: the External ID tenant, e.g. `https://contoso.ciamlogin.com/contoso.onmicrosoft.com`,
    ///     or the identity emulator's External ID tenant.
    ///   - challengeTypes: the challenge types the app's screens can present.
    public init(clientId: String, authority: MSALCIAMAuthority, challengeTypes: MSALNativeAuthChallengeTypes) {
        self.challengeTypes = challengeTypes
        super.init(clientId: clientId, redirectUri: nil, authority: authority)
    }

    /// `https://<tenantSubdomain>.ciamlogin.com/<tenantSubdomain>.onmicrosoft.com`.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when the subdomain makes no valid URL.
    public convenience init(clientId: String, tenantSubdomain: String, challengeTypes: MSALNativeAuthChallengeTypes)
        throws
    {
        guard let url = URL(string: "https://\(tenantSubdomain).ciamlogin.com/\(tenantSubdomain).onmicrosoft.com")
        else {
            throw MSALError.internal(.invalidParameter, "The tenant subdomain makes no valid URL.")
        }
        self.init(clientId: clientId, authority: try MSALCIAMAuthority(url: url), challengeTypes: challengeTypes)
    }
}

/// MSAL's native-authentication app: sign-up, sign-in and password reset with the app's own screens,
/// reported to delegates on the main actor. Every classic call of ``MSALPublicClientApplication`` works too.
///
/// `@unchecked Sendable` invariant: as the superclass, only `let`s of Sendable types.
public final class MSALNativeAuthPublicClientApplication: MSALPublicClientApplication, @unchecked Sendable {
    let engine: NativeAuthEngine

    /// Makes a native-auth app from its configuration.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for an empty client id.
    public init(nativeAuthConfiguration configuration: MSALNativeAuthPublicClientApplicationConfig) throws {
        let core = try configuration.coreConfiguration()
        let application = try PublicClientApplication(configuration: core)
        engine = NativeAuthEngine(
            app: application, challengeTypes: configuration.challengeTypes.wireValue,
            capabilities: configuration.capabilities.wireValue)
        super.init(application: application)
    }

    /// An app on `https://<tenantSubdomain>.ciamlogin.com`.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for an empty client id or a bad subdomain.
    public convenience init(
        clientId: String, tenantSubdomain: String, challengeTypes: MSALNativeAuthChallengeTypes,
        redirectUri: String? = nil
    ) throws {
        let configuration = try MSALNativeAuthPublicClientApplicationConfig(
            clientId: clientId, tenantSubdomain: tenantSubdomain, challengeTypes: challengeTypes)
        configuration.redirectUri = redirectUri
        try self.init(nativeAuthConfiguration: configuration)
    }

    /// An app on any External ID authority URL, e.g. the identity emulator's
    /// `http://127.0.0.1:8400/contosocustomers.onmicrosoft.com`.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` for an empty client id or an invalid URL.
    public convenience init(clientId: String, authorityURL: URL, challengeTypes: MSALNativeAuthChallengeTypes) throws {
        try self.init(
            nativeAuthConfiguration: MSALNativeAuthPublicClientApplicationConfig(
                clientId: clientId, authority: try MSALCIAMAuthority(url: authorityURL), challengeTypes: challengeTypes)
        )
    }

    // MARK: Entry points

    /// Starts a sign-in; the outcome goes to `delegate` on the main actor.
    public func signIn(parameters: MSALNativeAuthSignInParameters, delegate: any SignInStartDelegate) {
        let (engine, username, password, scopes) = (
            engine, parameters.username, parameters.password, parameters.scopes ?? []
        )
        let (claims, correlationID) = (parameters.claimsRequest?.jsonString(), parameters.correlationId)
        let fail: NativeDelegates.Failure = {
            delegate.onSignInStartError(error: SignInStartError(type: .generalError, message: $0))
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                switch NativeAuthEngine.refused(username: username, password: password) {
                case .blankUsername?:
                    return await delegate.onSignInStartError(error: SignInStartError(type: .invalidUsername))
                case .emptyPassword?:
                    return await delegate.onSignInStartError(error: SignInStartError(type: .invalidCredentials))
                case nil: break
                }
                await NativeDelegates.signInStart(
                    try await engine.signIn(
                        username: username, password: password, scopes: scopes, claims: claims,
                        correlationID: correlationID), delegate)
            } catch {
                await delegate.onSignInStartError(
                    error: SignInStartError(
                        type: NativeDelegates.isInvalidUsername(error) ? .invalidUsername : .generalError, error))
            }
        }
    }

    /// Starts a sign-in (the MSAL 1.x form the tutorials use).
    public func signIn(
        username: String, password: String? = nil, scopes: [String]? = nil, correlationId: UUID? = nil,
        delegate: any SignInStartDelegate
    ) {
        let parameters = MSALNativeAuthSignInParameters(username: username)
        parameters.password = password
        parameters.scopes = scopes
        parameters.correlationId = correlationId
        signIn(parameters: parameters, delegate: delegate)
    }

    /// Starts a sign-up; the outcome goes to `delegate` on the main actor.
    public func signUp(parameters: MSALNativeAuthSignUpParameters, delegate: any SignUpStartDelegate) {
        let (engine, username, password) = (engine, parameters.username, parameters.password)
        let attributes = (parameters.attributes ?? [:]).mapValues(AttributeValue.init(any:))
        let correlationID = parameters.correlationId
        let fail: NativeDelegates.Failure = {
            delegate.onSignUpStartError(error: SignUpStartError(type: .generalError, message: $0))
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                switch NativeAuthEngine.refused(username: username, password: password) {
                case .blankUsername?:
                    return await delegate.onSignUpStartError(error: SignUpStartError(type: .invalidUsername))
                case .emptyPassword?:
                    return await delegate.onSignUpStartError(error: SignUpStartError(type: .invalidPassword))
                case nil: break
                }
                await NativeDelegates.signUpStart(
                    try await engine.signUp(
                        username: username, password: password, attributes: attributes, correlationID: correlationID),
                    delegate)
            } catch {
                await delegate.onSignUpStartError(
                    error: SignUpStartError(
                        type: NativeDelegates.isInvalidUsername(error) ? .invalidUsername : .generalError, error))
            }
        }
    }

    /// Starts a sign-up (the MSAL 1.x form).
    public func signUp(
        username: String, password: String? = nil, attributes: [String: Any]? = nil, correlationId: UUID? = nil,
        delegate: any SignUpStartDelegate
    ) {
        let parameters = MSALNativeAuthSignUpParameters(username: username)
        parameters.password = password
        parameters.attributes = attributes
        parameters.correlationId = correlationId
        signUp(parameters: parameters, delegate: delegate)
    }

    /// Starts a password reset; the outcome goes to `delegate` on the main actor.
    public func resetPassword(
        parameters: MSALNativeAuthResetPasswordParameters, delegate: any ResetPasswordStartDelegate
    ) {
        let (engine, username, correlationID) = (engine, parameters.username, parameters.correlationId)
        let fail: NativeDelegates.Failure = {
            delegate.onResetPasswordStartError(error: ResetPasswordStartError(type: .generalError, message: $0))
        }
        NativeDelegates.run(failingWith: fail) {
            do {
                if NativeAuthEngine.refused(username: username, password: nil) != nil {
                    return await delegate.onResetPasswordStartError(
                        error: ResetPasswordStartError(type: .invalidUsername))
                }
                await NativeDelegates.resetStart(
                    try await engine.resetPassword(username: username, correlationID: correlationID), delegate)
            } catch {
                await delegate.onResetPasswordStartError(
                    error: ResetPasswordStartError(
                        type: NativeDelegates.isInvalidUsername(error) ? .invalidUsername : .generalError, error))
            }
        }
    }

    /// Starts a password reset (the MSAL 1.x form).
    public func resetPassword(username: String, correlationId: UUID? = nil, delegate: any ResetPasswordStartDelegate) {
        let parameters = MSALNativeAuthResetPasswordParameters(username: username)
        parameters.correlationId = correlationId
        resetPassword(parameters: parameters, delegate: delegate)
    }

    /// The signed-in user from the cache, or `nil`. Blocks until the cache answers, as MSAL does.
    public func getNativeAuthUserAccount(correlationId: UUID? = nil) -> MSALNativeAuthUserAccountResult? {
        let engine = engine
        let user = try? Completion.wait { try await engine.currentUser() }
        return user.flatMap { $0 }.map(MSALNativeAuthUserAccountResult.init)
    }
}

/// Parameters of ``MSALNativeAuthPublicClientApplication/signIn(parameters:delegate:)``.
public final class MSALNativeAuthSignInParameters: @unchecked Sendable {
    // Unchecked: a parameter object filled on one thread before the call, which copies what it needs.
    /// The user's username, usually an email address.
    public let username: String
    /// The password; with `nil` the delegate is asked for a one-time code or the password.
    public var password: String?
    /// The scopes to request besides `openid`, `profile` and `offline_access`.
    public var scopes: [String]?
    /// Claims to request in the tokens (a Conditional Access claims challenge, for instance).
    public var claimsRequest: MSALClaimsRequest?
    /// The id every request of the sign-in carries; a new one when `nil`.
    public var correlationId: UUID?
    /// Parameters for `username`.
    public init(username: String) { self.username = username }
}

/// Parameters of ``MSALNativeAuthPublicClientApplication/signUp(parameters:delegate:)``.
public final class MSALNativeAuthSignUpParameters: @unchecked Sendable {
    // Unchecked: a parameter object filled on one thread before the call, which copies what it needs.
    /// The new user's username, usually an email address.
    public let username: String
    /// The password; with `nil` the delegate is asked for one when the tenant needs it.
    public var password: String?
    /// User attributes by name: strings, numbers and booleans, each sent as its JSON type.
    public var attributes: [String: Any]?
    /// The id every request of the flow carries; a new one when `nil`.
    public var correlationId: UUID?
    /// Parameters for `username`.
    public init(username: String) { self.username = username }
}

/// Parameters of ``MSALNativeAuthPublicClientApplication/resetPassword(parameters:delegate:)``.
public final class MSALNativeAuthResetPasswordParameters: @unchecked Sendable {
    // Unchecked: a parameter object filled on one thread before the call, which copies what it needs.
    /// The username of the user whose password to reset.
    public let username: String
    /// The id every request of the flow carries; a new one when `nil`.
    public var correlationId: UUID?
    /// Parameters for `username`.
    public init(username: String) { self.username = username }
}

/// Parameters of ``MSALNativeAuthUserAccountResult/getAccessToken(parameters:delegate:)``.
public final class MSALNativeAuthGetAccessTokenParameters: @unchecked Sendable {
    // Unchecked: a parameter object filled on one thread before the call, which copies what it needs.
    /// Skip the cached access token and use the refresh token.
    public var forceRefresh = false
    /// The scopes to request; those of the sign-in when `nil`.
    public var scopes: [String]?
    /// Claims the token must carry (a claims challenge); the cached token is skipped.
    public var claimsRequest: MSALClaimsRequest?
    /// The id the token request carries; a new one when `nil`.
    public var correlationId: UUID?
    /// Parameters for a token for the sign-in's scopes.
    public init() {}
}

/// Parameters of ``SignInAfterSignUpState/signIn(parameters:delegate:)``.
public final class MSALNativeAuthSignInAfterSignUpParameters: @unchecked Sendable {
    // Unchecked: a parameter object filled on one thread before the call, which copies what it needs.
    /// The scopes to request besides `openid`, `profile` and `offline_access`.
    public var scopes: [String]?
    /// Claims to request in the tokens.
    public var claimsRequest: MSALClaimsRequest?
    /// Parameters for the default scopes.
    public init() {}
}

/// Parameters of ``SignInAfterResetPasswordState/signIn(parameters:delegate:)``.
public final class MSALNativeAuthSignInAfterResetPasswordParameters: @unchecked Sendable {
    // Unchecked: a parameter object filled on one thread before the call, which copies what it needs.
    /// The scopes to request besides `openid`, `profile` and `offline_access`.
    public var scopes: [String]?
    /// Claims to request in the tokens.
    public var claimsRequest: MSALClaimsRequest?
    /// Parameters for the default scopes.
    public init() {}
}
