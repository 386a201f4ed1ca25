import ArgumentParser
import Foundation
import MSAL

/// `msal logout`: forgets an account's tokens, optionally ending the browser session too.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign out the current account, one account, or all.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The account to sign out.", valueName: "username"))
    var username: String?

    @Flag(help: "Sign out every account.")
    var all = false

    @Flag(help: "Also end the session in the browser (opens the identity provider's sign-out page).")
    var browser = false

    func validate() throws {
        if all && username != nil { throw ValidationError("--username and --all exclude each other.") }
    }

    func run() async throws {
        let (username, all, fromBrowser, json) = (username, all, browser, global.json)
        try await global.run { context in
            let accounts: [Account] =
                if all {
                    try await context.app.accounts()
                } else {
                    try await context.account(username: username) {
                        CommandFailure("\($0) is not signed in here; `msal accounts` lists the signed-in accounts.")
                    }.map { [$0] } ?? []
                }
            for account in accounts {
                try await context.app.signOut(account, fromBrowser: fromBrowser)
            }
            // Copies of an unreadable cache kept aside may hold refresh tokens: they go with the sign-out.
            if case .file(let url) = context.storage, !CommandContext.isDatabaseURL(context.settings.cachePath.value) {
                let removed = FileTokenCachePersistence(url: url).removeSetAsideCopies()
                if removed > 0 {
                    context.console.err(
                        "Removed \(removed) set-aside cop\(removed == 1 ? "y" : "ies") of the token cache.")
                }
            }
            try SignOutView.report(accounts.map(\.username), json: json, context: context)
        }
    }
}
