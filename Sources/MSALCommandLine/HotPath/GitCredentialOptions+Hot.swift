extension GitCredentialOptions: HotCommand {
    static let hotPath = ["git-credential"]
    /// `get` alone (``operation``'s default): `store` and `erase` are rare and read by ArgumentParser.
    static let hotOperand: String? = "get"

    static let hotOptions: [HotOption<GitCredentialOptions>] = [
        .flag("--managed-identity") { $0.managedIdentity = true },
        HotOption(names: ["--host"], arity: .repeated) { command, hosts in
            command.hosts = hosts
            return true
        },
    ]

    /// Nothing to check: ArgumentParser's `GitCredential` has no `validate()` either.
    func validate() {}
}
