import ArgumentParser

/// `msal decode`: a token's header and claims explained, as jwt.ms shows them, without sending it anywhere.
struct Decode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode", abstract: "Show a token's header and claims, explained; nothing is sent anywhere.",
        discussion: """
            Times (exp, iat, nbf, auth_time…) are shown in local time too (TZ). The signature is not checked. \
            Prefer `-` (the token on standard input, e.g. `msal token | msal decode -`): a token on the command \
            line is visible to the machine's other users and stays in the shell's history.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The token, or - to read it from standard input.", valueName: "token"))
    var token = "-"

    func run() async throws {
        let (token, json) = (token, global.json)
        try await global.values.reportingFailure { console in
            let text: String
            if token == "-" {
                let prompter = Prompter(console: console)
                text =
                    prompter.isTerminal
                    ? try await prompter.secret("Token (not shown): ")
                    : try await prompter.secretFromStandardInput("msal decode -", what: "token")
            } else {
                text = token
            }
            try DecodedTokenView.print(text, json: json, on: console)
        }
    }
}
