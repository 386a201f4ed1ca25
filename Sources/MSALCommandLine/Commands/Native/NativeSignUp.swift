import ArgumentParser
import MSAL

/// `msal native signup`: a new customer account, verified by an email code, then signed in.
struct NativeSignUp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Create a customer account (email code, password, attributes), then sign in.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The new customer's email address.", valueName: "address"))
    var email: String

    @Flag(
        name: .customLong("password-stdin"),
        help: """
            Read the password from standard input's first line (for scripts: never put a password on the command \
            line). Without it the password is asked for, without echo, when the tenant needs one.
            """)
    var passwordFromStandardInput = false

    @Option(
        name: .customLong("attribute"),
        help: ArgumentHelp(
            "A user attribute, e.g. displayName=Jane or country=NZ (repeatable).", valueName: "name=value"))
    var attributes: [String] = []

    func validate() throws {
        for pair in attributes where !pair.contains("=") || pair.hasPrefix("=") {
            throw ValidationError("--attribute takes name=value, not '\(pair)'.")
        }
    }

    func run() async throws {
        let email = email
        let passwordFromStandardInput = passwordFromStandardInput
        var values: [String: String] = [:]
        for pair in attributes {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            values[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        let attributes = values.mapValues(AttributeValue.string)
        try await global.values.runNative { context, native in
            let conversation = NativeConversation(context)
            let password =
                passwordFromStandardInput
                ? try await conversation.prompter.secretFromStandardInput("--password-stdin") : nil
            let first = try await native.signUp(username: email, password: password, attributes: attributes)
            let after = try await conversation.signUp(first, username: email) { newPassword in
                try await native.signUp(username: email, password: newPassword, attributes: attributes)
            }
            let result = try await after.signIn()
            let user = try await conversation.signIn(result, username: email)
            try NativeSignedIn.report(user, verb: "Signed up and signed in", context: context)
        }
    }
}
