import ArgumentParser

/// `msal git-credential get|store|erase`: git's credential helper for Azure Repos, answering an Entra access
/// token for Azure DevOps as the password, as Git Credential Manager does (see ``GitCredentialOptions``).
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
    var operation: GitCredentialOptions.Operation

    /// The options given, as the command runs with them.
    var options: GitCredentialOptions {
        GitCredentialOptions(
            global: global.values, managedIdentity: managedIdentity, hosts: hosts, operation: operation)
    }

    func run() async throws { try await options.run() }
}

extension GitCredentialOptions.Operation: ExpressibleByArgument {}
