import Foundation
import MSAL

/// `msal git-credential`'s options as it runs with them (``GitCredential`` declares them for ArgumentParser and its
/// help), and what it does with them: git's credential helper for Azure Repos.
struct GitCredentialOptions: Sendable, Equatable {
    /// What git asks for.
    enum Operation: String, CaseIterable, Sendable {
        case get, store, erase
    }

    var global = GlobalOptionValues()
    /// `--managed-identity`.
    var managedIdentity = false
    /// `--host`, each time it is given.
    var hosts: [String] = []
    /// The operand git gives; `get` until one is read.
    var operation = Operation.get

    /// Reads git's request on standard input and answers it (`get`) or forgets the refused token (`erase`).
    func run() async throws {
        // Read whatever the operation: git writes the whole request before it reads an answer.
        let request = GitCredentialMessage { readLine(strippingNewline: true) }
        // Nothing to keep for store: the token is in msal's cache.
        guard operation != .store,
            AzureReposHost(extraHosts: hosts).serves(protocol: request["protocol"], host: request["host"])
        else { return }
        let command = self
        try await global.run { context in
            if command.operation == .get {
                try await command.answer(request, context: context)
            } else {
                try await command.forget(request, context: context)
            }
        }
    }

    /// Prints the username, the token and its expiry for git.
    private func answer(_ request: GitCredentialMessage, context: CommandContext) async throws {
        let (token, expiresOn) = try await token(context)
        let username = request["username"].flatMap { $0.isEmpty ? nil : $0 } ?? "msal"
        context.console.out(
            "username=\(username)\npassword=\(token)\npassword_expiry_utc=\(Int(expiresOn.timeIntervalSince1970))")
    }

    /// The token for Azure DevOps, as the identity the options and the environment name.
    private func token(_ context: CommandContext) async throws -> (String, Date) {
        if managedIdentity {
            let clientID = context.settings.clientID
            let identity: ManagedIdentity =
                clientID.origin == .flag ? .userAssignedClientID(clientID.value) : .systemAssigned
            let result = try await AppToken.managedIdentityApplication(identity, context: context, store: nil)
                .acquireToken(ManagedIdentityParameters(resource: AzureReposHost.resource))
            return (result.accessToken, result.expiresOn)
        }
        if let app = try EnvironmentCredential.read(context.environment) {
            let result = try await app.application(context).acquireTokenForClient(
                ClientCredentialParameters(scopes: AzureReposHost.scopes))
            return (result.accessToken, result.expiresOn)
        }
        let result = try await context.token(scopes: AzureReposHost.scopes, username: nil, interactive: false)
        return (result.accessToken, result.expiresOn)
    }

    /// Removes the refused token (git's `password`) from the cache, whoever it was issued to.
    private func forget(_ request: GitCredentialMessage, context: CommandContext) async throws {
        guard let refused = request["password"], !refused.isEmpty else { return }
        let cache = context.app.configuration.cache
        try await cache.removeAccessToken(refused, account: nil)
        for account in try await context.app.accounts() {
            try await cache.removeAccessToken(refused, account: account)
        }
    }
}
