import Foundation

extension TokenCache {
    /// Every account in the cache, whichever apps signed it in: what a tool that signs in as several apps
    /// lists and signs out (an app's own accounts are ``PublicClientApplication/accounts()``).
    ///
    /// The accounts carry no ID-token claims.
    ///
    /// - Throws: when the persisted cache cannot be read.
    public func accountsOfEveryApp() async throws -> [Account] {
        let groups = Dictionary(grouping: try await accounts()) { $0.homeAccountID.lowercasedIfNeeded }
        return groups.keys.sorted().compactMap { AccountBuilder.build(groups[$0]!, idTokens: []) }
    }

    /// Forgets `account` for every app that shares this cache: the refresh tokens of every client, and its
    /// access tokens, ID tokens and account entries. The next token for it, in any app, needs a sign-in
    /// (``PublicClientApplication/removeAccount(_:)`` forgets it for one app).
    ///
    /// - Parameter account: the account to forget.
    /// - Throws: when the persisted cache cannot be read or written.
    public func removeAccountFromEveryApp(_ account: Account) async throws {
        try await removeAccount(homeAccountID: account.identifier, clientID: nil, familyID: nil)
    }
}
