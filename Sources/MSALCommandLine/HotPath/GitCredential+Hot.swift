extension GitCredential: HotCommand {
    static let hotPath = ["git-credential"]
    /// `get` alone: `store` and `erase` are rare and read by ArgumentParser.
    static let hotOperand: String? = "get"

    static let hotOptions: [HotOption<GitCredential>] = [
        .flag("--managed-identity", to: \.managedIdentity),
        HotOption(names: ["--host"], arity: .repeated) { command, hosts in
            command.hosts = hosts
            return true
        },
    ]

    static func hotDefault() -> GitCredential {
        var command = GitCredential()
        command.managedIdentity = false
        command.hosts = []
        command.operation = .get
        return command
    }
}
