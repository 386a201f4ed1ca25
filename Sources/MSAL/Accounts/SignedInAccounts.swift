import Foundation

/// A public client's accounts in its cache: those of its authority, the one signed in last (remembered across
/// runs), and signing one out of the cache. The app's facade and native authentication both use it.
struct SignedInAccounts: Sendable {
    let app: ApplicationCore
    let cache: TokenCache

    /// The client's accounts for its authority's identity provider.
    func all() async throws -> [Account] {
        let endpoints = try await app.resolver.endpoints(for: app.settings.authority)
        return try await AccountBuilder(cache: cache, clientID: app.settings.clientID)
            .accounts(environments: endpoints.aliases)
    }

    /// The account signed in last, or the only cached one, and the one signed in before it.
    ///
    /// - Throws: ``MSALError`` `ambiguousAccount` when several accounts are cached and none was signed in last.
    func current() async throws -> CurrentAccount {
        let all = try await all()
        let (principal, previous) = try await cache.principal(clientID: app.settings.clientID)
        func find(_ id: String?) -> Account? {
            id.flatMap { id in all.first { $0.identifier.equalsIgnoringCase(id) } }
        }
        let previousAccount = find(previous?.homeAccountID) ?? previous.map(Account.init(signedOut:))
        if let current = find(principal?.homeAccountID) {
            return CurrentAccount(current: current, previous: previousAccount)
        }
        guard all.count <= 1 else {
            throw MSALError.internal(
                .ambiguousAccount, "Several accounts are signed in; pick one with accounts() or account(username:).")
        }
        return CurrentAccount(current: all.first, previous: previousAccount)
    }

    /// Makes `account` the one signed in last.
    func signedIn(_ account: Account) async throws {
        try await cache.setPrincipal(clientID: app.settings.clientID, PrincipalAccount(account))
    }

    /// Removes the account's tokens for this client (and the family refresh token) from the cache.
    func remove(_ account: Account) async throws {
        let endpoints = try await app.resolver.endpoints(for: app.settings.authority)
        let clientID = app.settings.clientID
        let metadata = try await cache.appMetadata(clientID: clientID, environments: endpoints.aliases)
        try await cache.removeAccount(
            homeAccountID: account.identifier, clientID: clientID, familyID: metadata?.familyID)
        let (current, _) = try await cache.principal(clientID: clientID)
        if current?.homeAccountID.equalsIgnoringCase(account.identifier) == true {
            try await cache.setPrincipal(clientID: clientID, nil)
        }
    }
}

/// The account a single-account app has signed in, and the one signed in before it (MSAL's `getCurrentAccount`).
public struct CurrentAccount: Sendable {
    /// The last account signed in, or the only cached one; `nil` when nobody is signed in.
    public let current: Account?
    /// The account signed in before it, also after it signed out (then with its identifier, username and
    /// environment only).
    public let previous: Account?
}
