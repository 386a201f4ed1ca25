import ArgumentParser
import Foundation
import MSAL

/// `msal git-credential get|store|erase`: git's credential helper for Azure Repos, answering an Entra access
/// token for Azure DevOps as the password, as Git Credential Manager does.
struct GitCredential: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-credential",
        abstract: "Git's credential helper for Azure Repos: an Entra token for Azure DevOps as the password.",
        discussion: """
            Git runs it with get, store or erase and the request on standard input. For Azure Repos \
            (https://dev.azure.com, https://*.visualstudio.com) and the hosts --host names, get answers an access \
            token for Azure DevOps (499b84ac-1321-427f-aa17-267ca6975798/.default), from the token cache while it \
            is valid; other hosts get no answer, so git asks the next helper. The token is the signed-in user's \
            (`msal login` once; it never prompts: git reads standard output), a service principal's or workload \
            identity's when AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET, \
            AZURE_CLIENT_CERTIFICATE_PATH or AZURE_FEDERATED_TOKEN_FILE are set, or the host's managed identity \
            with --managed-identity (--client-id names a user-assigned one). store keeps nothing (the token is in \
            msal's cache); erase, which git runs when the server refused the token, removes that token from the \
            cache, so the next get gets a new one. In ~/.gitconfig:
              [credential "https://dev.azure.com"]
                  helper = "!msal git-credential"
                  useHttpPath = false
            """)

    /// What git asks for.
    enum Operation: String, ExpressibleByArgument, CaseIterable, Sendable {
        case get, store, erase
    }

    @OptionGroup var global: GlobalOptions

    @Flag(
        name: .customLong("managed-identity"),
        help: "Get the token as the host's managed identity (--client-id names a user-assigned one).")
    var managedIdentity = false

    @Option(
        name: .customLong("host"),
        help: ArgumentHelp(
            "Another host (as git names it, host:port) that takes Azure DevOps tokens, e.g. a proxy to Azure Repos; "
                + "over http only on this machine (127.0.0.1, localhost).",
            valueName: "host"))
    var hosts: [String] = []

    @Argument(help: "get, store or erase (git gives it).")
    var operation: Operation

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
        if let app = try EnvironmentCredential.read(ProcessInfo.processInfo.environment) {
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
