extension Token: HotCommand {
    static let hotPath = ["token"]
    static let hotOperand: String? = nil

    static let hotOptions: [HotOption<Token>] = [
        HotOption(names: ["--scopes"], arity: .list) { token, scopes in
            token.scopes = scopes
            return true
        },
        .value("--username", to: \.username), .flag("--force-refresh", to: \.forceRefresh),
        .flag("--interactive", to: \.interactive),
        HotOption(names: ["--format"], arity: .value) { token, values in
            guard let format = values.last.flatMap(TokenFormat.init(rawValue:)) else { return false }
            token.format = format
            return true
        },
        .flag("--decode", to: \.decode),
    ]

    static func hotDefault() -> Token {
        var token = Token()
        token.scopes = defaultScopes
        token.username = nil
        token.forceRefresh = false
        token.interactive = false
        token.format = nil
        token.decode = false
        return token
    }
}
