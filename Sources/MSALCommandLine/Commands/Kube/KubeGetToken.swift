import ArgumentParser
import Foundation
import MSAL

/// `msal kube get-token`: a client-go exec credential plugin, argument-compatible with kubelogin's `get-token`.
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

    func validate() throws {
        guard clientSecretOnCommandLine == nil else {
            throw ValidationError(
                "Secrets are never taken on the command line (other users see it in the process list): set "
                    + "AZURE_CLIENT_SECRET (or AAD_SERVICE_PRINCIPAL_CLIENT_SECRET), in the kubeconfig's exec env if need be."
            )
        }
        if let authorityHost, URL(string: authorityHost)?.host == nil {
            throw ValidationError("--authority-host must be a URL such as https://login.microsoftonline.com/.")
        }
        if let environment, AzureCloud.authorityHost(environment) == nil {
            throw ValidationError(
                "--environment must be AzurePublicCloud, AzureUSGovernmentCloud or AzureChinaCloud; for another "
                    + "cloud give --authority-host.")
        }
    }

    func run() async throws {
        let variables = ProcessInfo.processInfo.environment
        var options = global
        var prepared: (ExecCredential, KubeLoginMode, EnvironmentCredential?)?
        var password: (username: String, password: String)?
        try await global.reportingFailure { _ in
            let mode = try KubeLoginMode.resolve(flag: login, environment: variables)
            if mode.isUser, let authority = try userAuthority(variables) { options.authority = authority }
            let credential = mode.isUser || mode == .msi ? nil : try appCredential(mode, variables)
            if mode == .ropc { password = try KubeLoginMode.passwordCredential(variables) }
            prepared = (try ExecCredential(environment: variables), mode, credential)
        }
        guard let (request, mode, credential) = prepared else { return }
        let userPassword = password
        let command = self
        let scopes = ["\(serverID)/.default"]
        try await options.run { context in
            let (token, expiresOn): (String, Date)
            if let credential {
                let result = try await credential.application(context).acquireTokenForClient(
                    ClientCredentialParameters(scopes: scopes))
                (token, expiresOn) = (result.accessToken, result.expiresOn)
            } else if mode == .msi {
                let result = try await AppToken.managedIdentityApplication(
                    command.managedIdentity(variables), context: context, store: nil
                ).acquireToken(ManagedIdentityParameters(resource: command.serverID))
                (token, expiresOn) = (result.accessToken, result.expiresOn)
            } else if let userPassword {
                let result = try await Self.passwordToken(context, scopes: scopes, credential: userPassword)
                (token, expiresOn) = (result.accessToken, result.expiresOn)
            } else {
                let result = try await Self.userToken(
                    context, scopes: scopes, deviceCode: mode == .devicecode, interactive: request.interactive)
                (token, expiresOn) = (result.accessToken, result.expiresOn)
            }
            try context.printJSON(request.answer(token: token, expiresOn: expiresOn))
        }
    }

    /// The authority a user signs in at: the sign-in host (``authorityHost``, `AZURE_AUTHORITY_HOST`, the
    /// ``environment``'s) with the tenant; `nil` when neither a host nor a tenant is given (msal's own authority).
    func userAuthority(_ variables: [String: String]) throws -> String? {
        let host =
            authorityHost ?? variables["AZURE_AUTHORITY_HOST"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment.flatMap(AzureCloud.authorityHost)
        let tenant = tenantID ?? variables["AZURE_TENANT_ID"].flatMap { $0.isEmpty ? nil : $0 }
        guard host != nil || tenant != nil else { return nil }
        let base = try host ?? Settings.resolve(global, environment: variables).authority.value
        return try AppToken.authority(base, tenant: tenant ?? "organizations").url.absoluteString
    }

    /// The service principal (`spn`) or workload identity the variables name, the flags standing in for the
    /// variables that are unset (kubelogin's order: its variables win over its flags).
    ///
    /// - Throws: ``UsageError`` when no credential is given, or one without its client id or tenant.
    func appCredential(_ mode: KubeLoginMode, _ variables: [String: String]) throws -> EnvironmentCredential {
        var variables = variables
        func fill(_ name: String, _ value: String?, alias: String? = nil) {
            guard let value, [name, alias].compactMap({ $0 }).allSatisfy({ variables[$0]?.isEmpty ?? true }) else {
                return
            }
            variables[name] = value
        }
        fill("AZURE_CLIENT_ID", global.clientID, alias: "AAD_SERVICE_PRINCIPAL_CLIENT_ID")
        fill("AZURE_TENANT_ID", tenantID)
        fill("AZURE_AUTHORITY_HOST", authorityHost ?? environment.flatMap(AzureCloud.authorityHost))
        let needs: String
        if mode == .workloadidentity {
            fill("AZURE_FEDERATED_TOKEN_FILE", federatedTokenFile)
            for name in [
                "AZURE_CLIENT_SECRET", "AAD_SERVICE_PRINCIPAL_CLIENT_SECRET", "AZURE_CLIENT_CERTIFICATE_PATH",
                "AAD_SERVICE_PRINCIPAL_CLIENT_CERTIFICATE",
            ] {
                variables[name] = nil
            }
            needs = "AZURE_FEDERATED_TOKEN_FILE (or --federated-token-file)"
        } else {
            fill("AZURE_CLIENT_CERTIFICATE_PATH", clientCertificate, alias: "AAD_SERVICE_PRINCIPAL_CLIENT_CERTIFICATE")
            variables["AZURE_FEDERATED_TOKEN_FILE"] = nil
            needs = "AZURE_CLIENT_SECRET or AZURE_CLIENT_CERTIFICATE_PATH (or --client-certificate)"
        }
        guard let credential = try EnvironmentCredential.read(variables) else {
            throw UsageError("--login \(mode.rawValue) needs \(needs), with AZURE_CLIENT_ID and AZURE_TENANT_ID.")
        }
        return credential
    }

    /// The managed identity kubelogin's options name: `--identity-resource-id`, else a client id
    /// (`AZURE_CLIENT_ID` over `--client-id`), else the system-assigned one.
    func managedIdentity(_ variables: [String: String]) -> ManagedIdentity {
        if let identityResourceID { return .userAssignedResourceID(identityResourceID) }
        if let clientID = variables["AZURE_CLIENT_ID"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return .userAssignedClientID(clientID)
        }
        if let clientID = global.clientID { return .userAssignedClientID(clientID) }
        return .systemAssigned
    }

    /// The signed-in user's token, silently when the cache allows, else by signing in when the user can answer.
    ///
    /// - Throws: ``CommandFailure`` (exit code 3) with the command that signs in, when a sign-in is needed and
    ///   kubectl has no terminal to offer.
    static func userToken(_ context: CommandContext, scopes: [String], deviceCode: Bool, interactive: Bool)
        async throws -> AuthenticationResult
    {
        if let account = try await context.account(username: nil) {
            do {
                return try await context.app.acquireTokenSilently(SilentParameters(scopes: scopes, account: account))
            } catch let error as MSALError where error.code == .interactionRequired && interactive {
                // Signed out of this app, or the refresh token expired: sign in below.
            } catch let error as MSALError where error.code == .interactionRequired {
                throw signInFirst(context, scopes: scopes, deviceCode: deviceCode)
            }
        }
        guard interactive else { throw signInFirst(context, scopes: scopes, deviceCode: deviceCode) }
        if !deviceCode { return try await context.signIn(InteractiveParameters(scopes: scopes)) }
        let result = try await context.app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: scopes)) { info in
            context.console.err(info.message)
            context.status.show("Waiting for you to enter the code \(info.userCode)…")
        }
        context.status.clear()
        return result
    }

    /// `ropc`: the user's cached token while it can be had silently, else a sign-in with the password.
    static func passwordToken(
        _ context: CommandContext, scopes: [String], credential: (username: String, password: String)
    ) async throws -> AuthenticationResult {
        if try await context.app.hasCachedAccount(username: credential.username),
            let account = try await context.app.account(username: credential.username)
        {
            do {
                return try await context.app.acquireTokenSilently(SilentParameters(scopes: scopes, account: account))
            } catch let error as MSALError where error.code == .interactionRequired {
                // The refresh token is gone or expired: sign in with the password again below.
            }
        }
        return try await context.app.acquireTokenByUsernamePassword(
            UsernamePasswordParameters(scopes: scopes, username: credential.username, password: credential.password))
    }

    /// Nobody is signed in for the cluster and kubectl cannot prompt: the `msal login` that signs in (exit code 3).
    static func signInFirst(_ context: CommandContext, scopes: [String], deviceCode: Bool) -> CommandFailure {
        let settings = context.settings
        let login =
            ["msal login"] + (deviceCode ? ["--device-code"] : [])
            + ["--authority", settings.authority.value, "--client-id", settings.clientID.value, "--scopes"] + scopes
            + (settings.cachePath.origin == .flag ? ["--cache", settings.cachePath.value] : [])
        return CommandFailure(
            "Nobody is signed in for this cluster, and kubectl runs msal without a terminal to sign in with; "
                + "sign in first: \(login.joined(separator: " "))",
            exitCode: ExitCodes.interactionRequired)
    }
}
