import ArgumentParser

/// `msal kube get-token`: a client-go exec credential plugin, argument-compatible with kubelogin's `get-token`
/// (see ``KubeGetTokenOptions``).
struct KubeGetToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get-token",
        abstract: "Print a Kubernetes ExecCredential with an Entra token for the cluster (kubectl's exec plugin).",
        discussion: """
            kubectl runs it for every command that needs credentials, as it runs kubelogin get-token, and reads \
            the ExecCredential (client.authentication.k8s.io/v1beta1 or v1, as KUBERNETES_EXEC_INFO asks) on \
            standard output; prompts go to standard error. The token is for --server-id's .default scope, from the \
            token cache msal login and msal logout use: after msal logout the next call signs in again. When \
            kubectl has no terminal to offer (spec.interactive false), it never prompts but fails with the \
            command that signs in.
            --login devicecode (the default) or interactive: the signed-in user, --client-id's app. ropc: the user \
            AAD_USER_PRINCIPAL_NAME with the password AAD_USER_PRINCIPAL_PASSWORD (a legacy grant: no MFA, no \
            federated users), silently while the cache has their token. spn: a \
            service principal, AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET or \
            AZURE_CLIENT_CERTIFICATE_PATH (a PEM file with the key and certificate), or kubelogin's \
            AAD_SERVICE_PRINCIPAL_CLIENT_ID, …_CLIENT_SECRET, …_CLIENT_CERTIFICATE; the variables win over the \
            flags, as in kubelogin. workloadidentity: AZURE_FEDERATED_TOKEN_FILE with AZURE_CLIENT_ID and \
            AZURE_TENANT_ID. msi: the host's managed identity (--client-id or --identity-resource-id for a \
            user-assigned one). AAD_LOGIN_METHOD overrides --login. The sign-in host is --authority-host or \
            AZURE_AUTHORITY_HOST, else --environment's, else msal's own (--authority, MSAL_AUTHORITY), with \
            --tenant-id (AZURE_TENANT_ID) as the tenant. A client secret is never taken on the command line.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        name: [.customShort("l"), .long],
        help: ArgumentHelp(
            "devicecode, interactive, ropc, spn, msi or workloadidentity (env AAD_LOGIN_METHOD).", valueName: "mode"))
    var login: String?

    @Option(
        name: .customLong("server-id"),
        help: ArgumentHelp(
            "The cluster's Entra server application id (AKS: 6dae42f8-4368-4678-94ff-3960e28e3630).", valueName: "id"))
    var serverID: String

    @Option(
        name: [.customShort("t"), .customLong("tenant-id")],
        help: ArgumentHelp("The tenant id or domain (env AZURE_TENANT_ID).", valueName: "tenant"))
    var tenantID: String?

    @Option(
        name: [.customShort("e"), .long],
        help: ArgumentHelp("AzurePublicCloud, AzureUSGovernmentCloud or AzureChinaCloud.", valueName: "cloud"))
    var environment: String?

    @Option(
        name: .customLong("authority-host"),
        help: ArgumentHelp(
            "The sign-in host, e.g. https://login.microsoftonline.com/ (env AZURE_AUTHORITY_HOST).",
            valueName: "url"))
    var authorityHost: String?

    @Option(
        name: .customLong("client-certificate"),
        help: ArgumentHelp(
            "spn: a PEM file with the private key and certificate (env AZURE_CLIENT_CERTIFICATE_PATH).",
            valueName: "file"))
    var clientCertificate: String?

    @Option(
        name: .customLong("federated-token-file"),
        help: ArgumentHelp(
            "workloadidentity: the federated token file (env AZURE_FEDERATED_TOKEN_FILE).",
            valueName: "file"))
    var federatedTokenFile: String?

    @Option(
        name: .customLong("identity-resource-id"),
        help: ArgumentHelp("msi: a user-assigned identity's Azure resource id.", valueName: "id"))
    var identityResourceID: String?

    /// Accepted for kubeconfigs written for kubelogin; msal keeps its tokens in its own cache (`--cache`).
    @Option(name: [.customLong("cache-dir"), .customLong("token-cache-dir")], help: .hidden)
    var cacheDirectory: String?

    /// Refused: a secret on the command line is in the process list and the shell's history.
    @Option(name: .customLong("client-secret"), help: .hidden)
    var clientSecretOnCommandLine: String?

    /// The options given, as the command runs with them.
    var options: KubeGetTokenOptions {
        KubeGetTokenOptions(
            global: global.values, login: login, serverID: serverID, tenantID: tenantID, environment: environment,
            authorityHost: authorityHost, clientCertificate: clientCertificate, federatedTokenFile: federatedTokenFile,
            identityResourceID: identityResourceID, cacheDirectory: cacheDirectory,
            clientSecretOnCommandLine: clientSecretOnCommandLine)
    }

    func validate() throws { try options.validate() }

    func run() async throws { try await options.run() }
}
