import ArgumentParser
import MSAL

/// `msal native signout`: forgets the signed-in customer's tokens (no network call).
struct NativeSignOut: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signout", abstract: "Sign the customer out of this app.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let json = global.json
        try await global.values.runNative { context, native in
            let user = try await native.currentAccount()
            try await user?.signOut()
            try SignOutView.report(user.map { [$0.account.username] } ?? [], json: json, context: context)
        }
    }
}
