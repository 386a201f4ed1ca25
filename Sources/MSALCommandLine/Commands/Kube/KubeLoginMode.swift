import ArgumentParser

/// kubelogin's `--login` (`-l`, or `AAD_LOGIN_METHOD`): how `msal kube get-token` gets the cluster's token.
enum KubeLoginMode: String, Sendable, CaseIterable {
    /// The user, with a code entered on another device (kubelogin's default).
    case devicecode
    /// The user, in the browser.
    case interactive
    /// A service principal with a client secret or certificate from the environment.
    case spn
    /// A username and password (resource owner password credentials) from `AAD_USER_PRINCIPAL_NAME` and
    /// `AAD_USER_PRINCIPAL_PASSWORD`, as kubelogin reads them.
    case ropc
    /// The host's managed identity.
    case msi
    /// A workload identity's federated token file (`AZURE_FEDERATED_TOKEN_FILE`, as on AKS).
    case workloadidentity

    /// kubelogin's modes that msal leaves to other tools, each with where to turn instead.
    static let elsewhere = [
        "azurecli": "it reuses Azure CLI's sign-in; sign in with msal (devicecode or interactive) instead",
        "azd": "it reuses the Azure Developer CLI's sign-in; sign in with msal (devicecode or interactive) instead",
        "azurepipelines": "it needs an Azure Pipelines service connection; use workloadidentity or spn",
    ]

    /// The mode kubelogin would use: `AAD_LOGIN_METHOD` over `--login`, over `devicecode`.
    ///
    /// - Throws: ``UsageError`` for an unknown mode or one msal leaves to other tools.
    static func resolve(flag: String?, environment: [String: String]) throws -> KubeLoginMode {
        let name = environment["AAD_LOGIN_METHOD"].flatMap { $0.isEmpty ? nil : $0 } ?? flag ?? "devicecode"
        if let mode = KubeLoginMode(rawValue: name.lowercased()) { return mode }
        if let why = elsewhere[name.lowercased()] {
            throw UsageError("--login \(name) is not supported by msal: \(why).")
        }
        throw UsageError(
            "--login must be one of \(allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\".")
    }

    /// The user signs in (the token cache's account), rather than an app with its own credential.
    var isUser: Bool { self == .devicecode || self == .interactive || self == .ropc }

    /// `ropc`'s username and password: kubelogin's `AAD_USER_PRINCIPAL_NAME` and `AAD_USER_PRINCIPAL_PASSWORD`
    /// (msal takes no password on the command line).
    ///
    /// - Throws: ``UsageError`` when either is unset or empty.
    static func passwordCredential(_ variables: [String: String]) throws -> (username: String, password: String) {
        guard let username = variables["AAD_USER_PRINCIPAL_NAME"], !username.isEmpty,
            let password = variables["AAD_USER_PRINCIPAL_PASSWORD"], !password.isEmpty
        else {
            throw UsageError(
                "--login ropc needs AAD_USER_PRINCIPAL_NAME and AAD_USER_PRINCIPAL_PASSWORD (a password is never "
                    + "taken on the command line).")
        }
        return (username, password)
    }
}

/// kubelogin's `--environment` (`-e`): the Azure clouds by the names kubeconfigs carry.
enum AzureCloud {
    /// The sign-in host of the named cloud (case-insensitive, with or without `Cloud`); `nil` for another name.
    static func authorityHost(_ name: String) -> String? {
        switch name.uppercased() {
        case "AZUREPUBLICCLOUD", "AZURECLOUD", "AZUREPUBLIC": "https://login.microsoftonline.com/"
        case "AZUREUSGOVERNMENTCLOUD", "AZUREUSGOVERNMENT": "https://login.microsoftonline.us/"
        case "AZURECHINACLOUD", "AZURECHINA": "https://login.chinacloudapi.cn/"
        default: nil
        }
    }
}
