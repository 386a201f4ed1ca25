import ArgumentParser
import Foundation
import MSAL

/// `msal kube get-token`'s options as it runs with them (``KubeGetToken`` declares them, kubelogin's, for
/// ArgumentParser and its help), and what it does with them: print an ExecCredential for kubectl.
struct KubeGetTokenOptions: Sendable, Equatable {
    var global = GlobalOptionValues()
    /// `--login`.
    var login: String?
    /// `--server-id`; required.
    var serverID = ""
    /// `--tenant-id`.
    var tenantID: String?
    /// `--environment`.
    var environment: String?
    /// `--authority-host`.
    var authorityHost: String?
    /// `--client-certificate`.
    var clientCertificate: String?
    /// `--federated-token-file`.
    var federatedTokenFile: String?
    /// `--identity-resource-id`.
    var identityResourceID: String?
    /// `--cache-dir`: accepted for kubeconfigs written for kubelogin; msal keeps its tokens in its own cache.
    var cacheDirectory: String?
    /// `--client-secret`: refused, a secret on the command line is in the process list and the shell's history.
    var clientSecretOnCommandLine: String?

    /// - Throws: `ValidationError` for a client secret, or a sign-in host or cloud that is not one.
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

    /// Prints the ExecCredential with the token for ``serverID``, as the login mode and the environment say.
    func run() async throws {
        let variables = ProcessInfo.processInfo.environment
        var signInOptions = global
        var prepared: (ExecCredential, KubeLoginMode, EnvironmentCredential?)?
        var password: (username: String, password: String)?
        try await global.reportingFailure { _ in
            let mode = try KubeLoginMode.resolve(flag: login, environment: variables)
            if mode.isUser, let authority = try userAuthority(variables) { signInOptions.authority = authority }
            let credential = mode.isUser || mode == .msi ? nil : try appCredential(mode, variables)
            if mode == .ropc { password = try KubeLoginMode.passwordCredential(variables) }
            prepared = (try ExecCredential(environment: variables), mode, credential)
        }
        guard let (request, mode, credential) = prepared else { return }
        let userPassword = password
        let command = self
        let scopes = ["\(serverID)/.default"]
        try await signInOptions.run(environment: variables) { context in
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
}
