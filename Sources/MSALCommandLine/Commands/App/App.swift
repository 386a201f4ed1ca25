import ArgumentParser

/// `msal app …`: the app acting as itself (a service principal), as `az login --service-principal` does.
struct App: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Get tokens as an application (a daemon or service) with its own credential.",
        discussion: """
            The credential is a certificate (a PEM file with the private key and certificate), a client secret \
            read from an environment variable, or a federated token file (workload identity, as on AKS). \
            Secrets are never taken from the command line.
            """,
        subcommands: [AppToken.self])
}
