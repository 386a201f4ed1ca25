import ArgumentParser
import MSAL

/// `msal native signin`: email + password, or an email code for code-only users.
struct NativeSignIn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin", abstract: "Sign in with email and password, or with a code sent by email.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The customer's email address.", valueName: "address"))
    var email: String

    @Flag(
        name: .customLong("password-stdin"),
        help: """
            Read the password from standard input's first line (for scripts: never put a password on the command \
            line). Without it the password is asked for, without echo, when the user has one.
            """)
    var passwordFromStandardInput = false

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Scopes for the first access token, besides openid profile offline_access.", valueName: "scope"))
    var scopes: [String] = []

    func run() async throws {
        let (email, passwordFromStandardInput, scopes) = (email, passwordFromStandardInput, ScopeList.split(scopes))
        try await global.values.runNative { context, native in
            let conversation = NativeConversation(context)
            let password =
                passwordFromStandardInput
                ? try await conversation.prompter.secretFromStandardInput("--password-stdin") : nil
            let first = try await context.status.during("Signing in…") {
                try await native.signIn(username: email, password: password, scopes: scopes)
            }
            let user = try await conversation.signIn(first, username: email)
            try NativeSignedIn.report(user, verb: "Signed in", context: context)
        }
    }
}
