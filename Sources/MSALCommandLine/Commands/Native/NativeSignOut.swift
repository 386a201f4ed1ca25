import ArgumentParser
import MSAL

/// `msal native signout`: forgets the signed-in customer's tokens (no network call).
struct NativeSignOut: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signout", abstract: "Sign the customer out of this app.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.runNative { context, native in
            guard let user = try await native.currentAccount() else {
                context.console.out("Nobody was signed in.")
                return
            }
            try await user.signOut()
            context.console.out("Signed out \(user.account.username).")
        }
    }
}
