import ArgumentParser
import MSAL

/// `msal native …`: Entra External ID sign-up, sign-in and password reset in the terminal, without a browser.
struct Native: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "native",
        abstract: "Sign customers up and in on an External ID tenant from the terminal (native authentication).",
        discussion: """
            Without --authority and --client-id these use the emulator's External ID tenant \
            (http://127.0.0.1:8400/contosocustomers.onmicrosoft.com) and its demo app. Codes and passwords are \
            asked for on the terminal (passwords without echo) or read line by line from standard input.
            """,
        subcommands: [
            NativeSignUp.self, NativeSignIn.self, NativeResetPassword.self, NativeToken.self, NativeCall.self,
            NativeSignOut.self,
        ])
}

extension GlobalOptionValues {
    /// Runs a `msal native` command's body with the native-auth app (External ID defaults).
    func runNative(_ body: @escaping @Sendable (CommandContext, NativeAuthApplication) async throws -> Void)
        async throws
    {
        try await run(native: true) { context in
            guard let native = context.native else { throw CommandFailure("The native-auth app could not be made.") }
            try await body(context, native)
        }
    }
}

/// What `msal native` prints about the signed-in user.
enum NativeSignedIn {
    static func report(_ user: NativeAuthUserAccount, verb: String, context: CommandContext) throws {
        if context.options.json {
            try context.printJSON(AccountView(user.account, isCurrent: true).json)
        } else {
            let name = user.accountClaims["name"].map { "\($0) <\(user.account.username)>" } ?? user.account.username
            context.console.out("\(verb) as \(name).")
        }
    }
}
