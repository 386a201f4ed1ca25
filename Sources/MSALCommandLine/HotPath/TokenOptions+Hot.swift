extension TokenOptions: HotCommand {
    static let hotPath = ["token"]
    static let hotOperand: String? = nil

    static let hotOptions: [HotOption<TokenOptions>] = [
        HotOption(names: ["--scopes"], arity: .list) { token, scopes in
            token.scopes = scopes
            return true
        },
        .value("--username") { $0.username = $1 }, .flag("--force-refresh") { $0.forceRefresh = true },
        .flag("--interactive") { $0.interactive = true },
        HotOption(names: ["--format"], arity: .value) { token, values in
            guard let format = values.last.flatMap(TokenFormat.init(rawValue:)) else { return false }
            token.format = format
            return true
        },
        .flag("--decode") { $0.decode = true },
    ]
}
