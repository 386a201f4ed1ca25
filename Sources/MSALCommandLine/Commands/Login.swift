import ArgumentParser
import MSAL

extension Prompt: ExpressibleByArgument {}

/// `msal login`: signs a user in, in the browser or with a code on another device.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in, in the system browser or with a code on another device.",
        discussion: """
            The browser is $BROWSER when set, else xdg-open. When it cannot be started (msal says why), or with \
            --no-browser, the URL is printed.
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

    func validate() throws {
        if noBrowser && deviceCode { throw ValidationError("--no-browser and --device-code exclude each other.") }
        if deviceCode && (prompt != nil || loginHint != nil) {
            throw ValidationError("--prompt and --login-hint apply to browser sign-in only.")
        }
    }

    func run() async throws {
        let scopes = ScopeList.split(scopes)
        let (deviceCode, prompt, loginHint, json) = (deviceCode, prompt, loginHint, global.json)
        try await global.run(browser: noBrowser ? .printURL : .system) { context in
            let result =
                if deviceCode {
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
}
