import Foundation

/// MSAL for iOS/macOS's application object with its completion-block API, over the async
/// ``PublicClientApplication``: code written from Microsoft's tutorials compiles and runs on Linux.
///
/// `@unchecked Sendable` invariant: every stored property is a `let` of a Sendable type; subclasses
/// (native authentication) keep to that.
open class MSALPublicClientApplication: @unchecked Sendable {
    /// The async core every call goes through.
    let application: PublicClientApplication

    /// Makes an app from its configuration.
    ///
    /// - Throws: ``MSALError`` `internal` / `invalidParameter` for an empty client id.
    public init(configuration: MSALPublicClientApplicationConfig) throws {
        application = try PublicClientApplication(configuration: configuration.coreConfiguration())
    }

    /// Wraps an app made by a subclass (native authentication).
    init(application: PublicClientApplication) {
        self.application = application
    }

    /// An app for `https://login.microsoftonline.com/common` with a loopback redirect.
    ///
    /// - Throws: ``MSALError`` `internal` / `invalidParameter` for an empty client id.
    public convenience init(clientId: String) throws {
        try self.init(configuration: MSALPublicClientApplicationConfig(clientId: clientId))
    }

    /// On iOS, hands the broker's or browser's redirect to MSAL. On Linux the loopback listener receives
    /// the redirect itself, so this returns `false`; keeping the call does no harm.
    public class func handleMSALResponse(_ response: URL, sourceApplication: String?) -> Bool {
        false
    }

    // MARK: Tokens

    /// Signs a user in through the browser. The block runs on ``MSALParameters/completionBlockQueue``,
    /// else on the main queue.
    ///
    /// Errors: ``MSALError`` `userCanceled`, `serverDeclinedScopes`, `internal` (see
    /// `MSALInternalErrorCodeKey`) and others in `MSALErrorDomain`; transport errors as they are.
    public func acquireToken(
        with parameters: MSALInteractiveTokenParameters, completionBlock: @escaping MSALCompletionBlock
    ) {
        let core = parameters.coreParameters()
        Completion.deliver(
            on: Completion.queue(parameters, interactive: true),
            { [application] in
                MSALResult(try await application.acquireTokenInteractively(core))
            }, to: completionBlock)
    }

    /// Signs a user in through the browser.
    ///
    /// - Throws: as ``acquireToken(with:completionBlock:)`` reports.
    public func acquireToken(with parameters: MSALInteractiveTokenParameters) async throws -> MSALResult {
        MSALResult(try await application.acquireTokenInteractively(parameters.coreParameters()))
    }

    /// A token from the cache, or refreshed with the refresh token. The block runs on
    /// ``MSALParameters/completionBlockQueue``, else on MSAL's serial completion queue.
    ///
    /// Errors: ``MSALError`` `interactionRequired` when only the user can fix it (the server's `error`
    /// and `suberror` under `MSALOAuthErrorKey` / `MSALOAuthSubErrorKey`), `serverDeclinedScopes`;
    /// server and transport errors.
    public func acquireTokenSilent(
        with parameters: MSALSilentTokenParameters, completionBlock: @escaping MSALCompletionBlock
    ) {
        let queue = Completion.queue(parameters, interactive: false)
        let core: SilentParameters
        do {
            core = try parameters.coreParameters()
        } catch {
            Completion.call({ completionBlock(nil, error) }, on: queue)
            return
        }
        Completion.deliver(
            on: queue,
            { [application] in
                MSALResult(try await application.acquireTokenSilently(core))
            }, to: completionBlock)
    }

    /// A token from the cache, or refreshed with the refresh token.
    ///
    /// - Throws: as ``acquireTokenSilent(with:completionBlock:)`` reports.
    public func acquireTokenSilent(with parameters: MSALSilentTokenParameters) async throws -> MSALResult {
        MSALResult(try await application.acquireTokenSilently(parameters.coreParameters()))
    }
}
