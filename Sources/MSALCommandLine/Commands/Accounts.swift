import ArgumentParser
import MSAL

/// `msal accounts`: who is signed in.
struct Accounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "List the signed-in accounts; * marks the current one.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let json = global.json
        try await global.values.run { context in
            let accounts = try await context.app.accounts()
            let current = try? await context.app.currentAccount().current
            let views = accounts.map { AccountView($0, isCurrent: $0 == current) }.sorted {
                $0.username.lowercased() < $1.username.lowercased()
            }
            if json {
                try context.printJSON(views.map(\.json))
            } else if views.isEmpty {
                context.console.err("Nobody is signed in; run `msal login`.")
            } else {
                context.console.out(AccountView.table(views))
            }
        }
    }
}
