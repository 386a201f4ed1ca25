extension KubeGetTokenOptions: HotCommand {
    static let hotPath = ["kube", "get-token"]
    static let hotOperand: String? = nil

    static let hotOptions: [HotOption<KubeGetTokenOptions>] = [
        .value("-l", "--login") { $0.login = $1 },
        HotOption(names: ["--server-id"], arity: .value, required: true) { command, values in
            command.serverID = values.last ?? ""
            return true
        },
        .value("-t", "--tenant-id") { $0.tenantID = $1 }, .value("-e", "--environment") { $0.environment = $1 },
        .value("--authority-host") { $0.authorityHost = $1 },
        .value("--client-certificate") { $0.clientCertificate = $1 },
        .value("--federated-token-file") { $0.federatedTokenFile = $1 },
        .value("--identity-resource-id") { $0.identityResourceID = $1 },
        .value("--cache-dir", "--token-cache-dir") { $0.cacheDirectory = $1 },
        .value("--client-secret") { $0.clientSecretOnCommandLine = $1 },
    ]
}
