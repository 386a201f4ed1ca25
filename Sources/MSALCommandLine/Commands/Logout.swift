import ArgumentParser
import Foundation
import MSAL

/// `msal logout`: forgets an account's tokens, those of every app that signed it in to this cache, optionally
/// ending the browser session too.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign out the current account, one account, or all.",
        discussion: "The account's tokens go for every app that signed it in to this token cache (msal's own, and the "
            + "--client-id apps of `msal kube get-token` and the like), so their next token needs a sign-in.")

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
        try await global.values.run { context in
            // Every app's tokens go: `msal kube get-token --client-id …` and the like sign in as other apps.
            let cache = context.app.configuration.cache
            let everyApp = try await cache.accountsOfEveryApp()
            let accounts: [Account]
            if all {
                accounts = everyApp
            } else if let username {
                guard let account = everyApp.first(where: { $0.username.lowercased() == username.lowercased() }) else {
                    throw CommandFailure(
                        "\(username) is not signed in here; `msal accounts` lists the signed-in accounts.")
                }
                accounts = [account]
            } else if let current = try await context.account(username: nil) {
                accounts = [current]
            } else if everyApp.count > 1 {
                throw UsageError(
                    "Several accounts are signed in; choose one with --username, or sign out all with --all.")
            } else {
                accounts = everyApp
            }
            for account in accounts {
                try await context.app.signOut(account, fromBrowser: fromBrowser)
                try await cache.removeAccountFromEveryApp(account)
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
