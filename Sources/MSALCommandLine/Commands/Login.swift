import ArgumentParser
import MSAL

extension Prompt: ExpressibleByArgument {}

/// `msal login`: signs a user in, in the browser, with a code on another device, or with a username and a password
/// read from standard input.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in, in the system browser or with a code on another device.",
        discussion: """
            The browser is $BROWSER when set, else xdg-open. When it cannot be started (msal says why), or with \
            --no-browser, the URL is printed.
            --username U --password-stdin signs in with a password read from standard input's first line (as \
            docker login --password-stdin), for test automation: a legacy grant, without MFA, personal accounts or \
            federated users. A password is never taken on the command line.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(parsing: .upToNextOption, help: ArgumentHelp("The scopes to consent to.", valueName: "scope"))
    var scopes: [String] = ["User.Read"]

    @Flag(name: .customLong("no-browser"), help: "Print the sign-in URL instead of opening a browser.")
    var noBrowser = false

    @Flag(
        name: .customLong("device-code"), help: "Sign in on another device with a code (for SSH and headless machines)."
    )
    var deviceCode = false

    @Option(help: ArgumentHelp("select_account, login, consent, create or none.", valueName: "prompt"))
    var prompt: Prompt?

    @Option(name: .customLong("login-hint"), help: ArgumentHelp("The username to fill in.", valueName: "username"))
    var loginHint: String?

    @Option(
        help: ArgumentHelp(
            "Sign in as this user with a password from standard input (needs --password-stdin).", valueName: "username")
    )
    var username: String?

    @Flag(
        name: .customLong("password-stdin"),
        help: "Read --username's password from standard input's first line (never put a password on the command line).")
    var passwordFromStandardInput = false

    func validate() throws {
        if noBrowser && deviceCode { throw ValidationError("--no-browser and --device-code exclude each other.") }
        if deviceCode && (prompt != nil || loginHint != nil) {
            throw ValidationError("--prompt and --login-hint apply to browser sign-in only.")
        }
        if (username != nil) != passwordFromStandardInput {
            throw ValidationError("--username and --password-stdin go together.")
        }
        if username != nil && (noBrowser || deviceCode || prompt != nil || loginHint != nil) {
            throw ValidationError(
                "--username signs in with a password: --no-browser, --device-code, --prompt and --login-hint do not apply."
            )
        }
    }

    func run() async throws {
        let scopes = ScopeList.split(scopes)
        let (deviceCode, prompt, loginHint, json) = (deviceCode, prompt, loginHint, global.json)
        let username = username
        try await global.values.run(browser: noBrowser ? .printURL : .system) { context in
            let result =
                if let username {
                    try await Self.signIn(context, scopes: scopes, username: username)
                } else if deviceCode {
                    try await context.app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: scopes)) { info in
                        context.console.err(info.message)
                        context.status.show("Waiting for you to enter the code \(info.userCode)…")
                    }
                } else {
                    try await context.signIn(
                        InteractiveParameters(scopes: scopes, prompt: prompt, loginHint: loginHint))
                }
            context.status.clear()
            if json {
                try context.printJSON(AccountView(result.account, isCurrent: true).json)
            } else {
                context.console.out(TokenView.signedIn(result))
            }
        }
    }

    /// Signs `username` in with the password on standard input's first line.
    static func signIn(_ context: CommandContext, scopes: [String], username: String) async throws
        -> AuthenticationResult
    {
        let password = try await Prompter(console: context.console).secretFromStandardInput("--password-stdin")
        return try await context.status.during("Signing in…") {
            try await context.app.acquireTokenByUsernamePassword(
                UsernamePasswordParameters(scopes: scopes, username: username, password: password))
        }
    }
}
