import ArgumentParser
import MSAL

/// `msal native reset-password`: a code by email, a new password, then signed in.
struct NativeResetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password", abstract: "Reset a forgotten password with a code sent by email, then sign in.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The customer's email address.", valueName: "address"))
    var email: String

    @Flag(
        name: .customLong("new-password-stdin"),
        help: """
            Read the new password from standard input's first line (for scripts: never put a password on the \
            command line). Without it the new password is asked for without echo.
            """)
    var newPasswordFromStandardInput = false

    func run() async throws {
        let (email, newPasswordFromStandardInput) = (email, newPasswordFromStandardInput)
        try await global.values.runNative { context, native in
            let conversation = NativeConversation(context)
            let newPassword =
                newPasswordFromStandardInput
                ? try await conversation.prompter.secretFromStandardInput("--new-password-stdin") : nil
            let first = try await native.resetPassword(username: email)
            let after = try await conversation.resetPassword(first, username: email, newPassword: newPassword)
            let user = try await conversation.signIn(try await after.signIn(), username: email)
            try NativeSignedIn.report(user, verb: "Password changed; signed in", context: context)
        }
    }
}
