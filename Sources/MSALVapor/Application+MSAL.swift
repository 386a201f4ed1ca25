import MSAL
import Vapor

extension Application {
    /// The identity settings of the app: the validator of the tokens its protected APIs accept, its own confidential
    /// client (on-behalf-of and app tokens), its web sign-in.
    ///
    ///     app.msal.accessTokens = try AccessTokenValidator(authority: authority, audiences: [clientID])
    ///     app.msal.client = try ConfidentialClientApplication(configuration: configuration)
    public var msal: MSALIdentity { MSALIdentity(application: self) }

    /// The identity settings of an ``Vapor/Application``, kept in its storage.
    public struct MSALIdentity: Sendable {
        let application: Application

        struct ValidatorKey: StorageKey { typealias Value = AccessTokenValidator }
        struct ClientKey: StorageKey { typealias Value = ConfidentialClientApplication }
        struct SignInKey: StorageKey { typealias Value = WebAppSignIn }

        /// The validator ``AccessTokenAuthenticator`` uses when it is given none.
        public var accessTokens: AccessTokenValidator? {
            get { application.storage[ValidatorKey.self] }
            nonmutating set { application.storage[ValidatorKey.self] = newValue }
        }

        /// The app's own confidential client: on-behalf-of tokens for its callers, its app tokens.
        public var client: ConfidentialClientApplication? {
            get { application.storage[ClientKey.self] ?? signIn?.core.app }
            nonmutating set { application.storage[ClientKey.self] = newValue }
        }

        /// The web sign-in ``use(_:)`` set up.
        public var signIn: WebAppSignIn? { application.storage[SignInKey.self] }

        /// Sets up web sign-in: the session cookie (``WebAppSignIn/sessionsConfiguration``), Vapor's sessions
        /// middleware over `app.sessions`, and the sign-in routes. Call it before adding routes that read the user.
        ///
        /// - Throws: when the routes cannot be registered.
        public func use(_ signIn: WebAppSignIn) throws {
            application.storage[SignInKey.self] = signIn
            application.sessions.configuration = signIn.sessionsConfiguration
            application.middleware.use(application.sessions.middleware)
            try application.register(collection: signIn)
        }
    }
}
