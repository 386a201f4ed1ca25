import ArgumentParser

/// `msal`: the tutorials' sample app as a command-line tool.
@main
struct MSALCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "msal",
        abstract: "Sign in with the Microsoft identity platform, get tokens, call Microsoft Graph and other APIs.",
        discussion: """
            Exit codes: 0 ok, 1 error, 2 usage, 3 interaction required, 4 error from the identity platform, \
            5 network, 130 cancelled.
            """,
        subcommands: [Demo.self])
}
