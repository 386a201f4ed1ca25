import Foundation

extension MSALPublicClientApplication {
    // MARK: Accounts (synchronous)

    /// Every cached account of this app. Blocks until the cache answers; in async code the `async`
    /// overload is chosen instead.
    ///
    /// - Throws: when the persisted cache cannot be read.
    public func allAccounts() throws -> [MSALAccount] {
        try Completion.wait { [application] in try await application.accounts().map(MSALAccount.init) }
    }

    /// Every cached account of this app.
    ///
    /// - Throws: when the persisted cache cannot be read.
    public func allAccounts() async throws -> [MSALAccount] {
        try await application.accounts().map(MSALAccount.init)
    }

    /// The cached account with this ``MSALAccount/identifier``, or `nil`. Blocks until the cache answers.
    ///
    /// - Throws: when the persisted cache cannot be read.
    public func account(forIdentifier identifier: String) throws -> MSALAccount? {
        try Completion.wait { [application] in
            try await application.account(identifier: identifier).map(MSALAccount.init)
        }
    }

    /// The cached account with this ``MSALAccount/identifier``, or `nil`.
    ///
    /// - Throws: when the persisted cache cannot be read.
    public func account(forIdentifier identifier: String) async throws -> MSALAccount? {
        try await application.account(identifier: identifier).map(MSALAccount.init)
    }

    /// Removes the account's tokens for this app from the cache. Blocks until the cache is written.
    ///
    /// - Throws: when the persisted cache cannot be written.
    public func remove(_ account: MSALAccount) throws {
        try Completion.wait { [application] in try await application.removeAccount(account.account) }
    }

    /// Removes the account's tokens for this app from the cache.
    ///
    /// - Throws: when the persisted cache cannot be written.
    public func remove(_ account: MSALAccount) async throws {
        try await application.removeAccount(account.account)
    }

    // MARK: Accounts (asynchronous)

    /// The accounts matching `parameters` (there is no broker on Linux: the cache's). The block runs on
    /// ``MSALParameters/completionBlockQueue``, else on MSAL's serial completion queue.
    public func accountsFromDevice(
        for parameters: MSALAccountEnumerationParameters, completionBlock: @escaping MSALAccountsCompletionBlock
    ) {
        Completion.deliver(
            on: Completion.queue(parameters, interactive: false),
            { [application, parameters = Filter(parameters)] in
                try await application.accounts().filter(parameters.matches).map(MSALAccount.init)
            }, to: completionBlock)
    }

    /// The accounts matching `parameters`.
    ///
    /// - Throws: when the persisted cache cannot be read.
    public func accountsFromDevice(for parameters: MSALAccountEnumerationParameters) async throws -> [MSALAccount] {
        try await application.accounts().filter(Filter(parameters).matches).map(MSALAccount.init)
    }

    /// The signed-in account of a single-account app and the one signed in before it (also after it
    /// signed out: then with identifier, username and environment only). The block runs on
    /// ``MSALParameters/completionBlockQueue``, else on MSAL's serial completion queue.
    ///
    /// Errors: ``MSALError`` `internal` with `ambiguousAccount` when several accounts are cached and
    /// none was signed in last.
    public func getCurrentAccount(
        with parameters: MSALParameters?, completionBlock: @escaping MSALCurrentAccountCompletionBlock
    ) {
        Completion.deliver(
            on: Completion.queue(parameters, interactive: false),
            { [application] in
                try await Self.currentAccount(application)
            }, to: { accounts, error in completionBlock(accounts?.current, accounts?.previous, error) })
    }

    /// The signed-in account and the one signed in before it.
    ///
    /// - Throws: as ``getCurrentAccount(with:completionBlock:)`` reports.
    public func getCurrentAccount(with parameters: MSALParameters?) async throws -> (
        current: MSALAccount?, previous: MSALAccount?
    ) {
        try await Self.currentAccount(application)
    }

    private static func currentAccount(_ application: PublicClientApplication) async throws -> (
        current: MSALAccount?, previous: MSALAccount?
    ) {
        let accounts = try await application.currentAccount()
        return (accounts.current.map(MSALAccount.init), accounts.previous.map(MSALAccount.init))
    }

    // MARK: Sign-out and device

    /// Signs the account out of this app (its tokens are forgotten) and, with
    /// ``MSALSignoutParameters/signoutFromBrowser``, opens the sign-out page to end the browser session.
    /// The block runs on ``MSALParameters/completionBlockQueue``, else on the main queue.
    public func signout(
        with account: MSALAccount, signoutParameters: MSALSignoutParameters,
        completionBlock: @escaping MSALSignoutCompletionBlock
    ) {
        let (fromBrowser, browser) = (
            signoutParameters.signoutFromBrowser, signoutParameters.webviewParameters.browserLauncher
        )
        Completion.deliver(
            on: Completion.queue(signoutParameters, interactive: true),
            { [application] in
                try await application.signOut(account.account, fromBrowser: fromBrowser, browser: browser)
                return true
            }, to: { success, error in completionBlock(success ?? false, error) })
    }

    /// Signs the account out of this app and, if asked, of the browser.
    ///
    /// - Returns: `true`.
    /// - Throws: when the cache cannot be written or the sign-out page cannot be opened.
    @discardableResult
    public func signout(with account: MSALAccount, signoutParameters: MSALSignoutParameters) async throws -> Bool {
        try await application.signOut(
            account.account, fromBrowser: signoutParameters.signoutFromBrowser,
            browser: signoutParameters.webviewParameters.browserLauncher)
        return true
    }

    /// The device mode (``MSALPublicClientApplicationConfig/deviceMode`` on Linux). The block runs on
    /// ``MSALParameters/completionBlockQueue``, else on MSAL's serial completion queue.
    public func getDeviceInformation(
        with parameters: MSALParameters?, completionBlock: @escaping MSALDeviceInformationCompletionBlock
    ) {
        let information = MSALDeviceInformation(application.deviceInformation())
        Completion.call({ completionBlock(information, nil) }, on: Completion.queue(parameters, interactive: false))
    }

    /// The device mode (``MSALPublicClientApplicationConfig/deviceMode`` on Linux).
    ///
    /// - Throws: nothing on Linux (MSAL's signature).
    public func getDeviceInformation(with parameters: MSALParameters?) async throws -> MSALDeviceInformation {
        MSALDeviceInformation(application.deviceInformation())
    }
}

/// The Sendable part of ``MSALAccountEnumerationParameters``, taken when a call starts.
private struct Filter: Sendable {
    let identifier: String?
    let username: String?

    init(_ parameters: MSALAccountEnumerationParameters) {
        identifier = parameters.identifier
        username = parameters.username
    }

    func matches(_ account: Account) -> Bool {
        (identifier.map { account.identifier.equalsIgnoringCase($0) } ?? true)
            && (username.map { account.username.equalsIgnoringCase($0) } ?? true)
    }
}
