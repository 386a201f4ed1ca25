extension KubeGetToken: HotCommand {
    static let hotPath = ["kube", "get-token"]
    static let hotOperand: String? = nil

    static let hotOptions: [HotOption<KubeGetToken>] = [
        .value("-l", "--login", to: \.login),
        HotOption(names: ["--server-id"], arity: .value, required: true) { command, values in
            command.serverID = values.last ?? ""
            return true
        },
        .value("-t", "--tenant-id", to: \.tenantID), .value("-e", "--environment", to: \.environment),
        .value("--authority-host", to: \.authorityHost), .value("--client-certificate", to: \.clientCertificate),
        .value("--federated-token-file", to: \.federatedTokenFile),
        .value("--identity-resource-id", to: \.identityResourceID),
        .value("--cache-dir", "--token-cache-dir", to: \.cacheDirectory),
        .value("--client-secret", to: \.clientSecretOnCommandLine),
    ]

    static func hotDefault() -> KubeGetToken {
        var command = KubeGetToken()
        command.login = nil
        command.serverID = ""
        command.tenantID = nil
        command.environment = nil
        command.authorityHost = nil
        command.clientCertificate = nil
        command.federatedTokenFile = nil
        command.identityResourceID = nil
        command.cacheDirectory = nil
        command.clientSecretOnCommandLine = nil
        return command
    }
}
