import ArgumentParser
import MSAL

/// `msal native token`: an access token for the signed-in customer, from the cache or refreshed.
struct NativeToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print an access token for the signed-in customer; never prompts.")

    @OptionGroup var global: GlobalOptions

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("The scopes the token is for, e.g. api://<id>/ToDoList.Read.", valueName: "scope"))
    var scopes: [String]

    @Flag(name: .customLong("force-refresh"), help: "Skip cached access tokens and use the refresh token.")
    var forceRefresh = false

    func validate() throws {
        _ = try ScopeList.required(scopes)
    }

    func run() async throws {
        let (scopes, forceRefresh, json) = (ScopeList.split(scopes), forceRefresh, global.json)
        try await global.values.runNative { context, native in
            let user = try await NativeSignedIn.current(native)
            let result = try await user.getAccessToken(scopes: scopes, forceRefresh: forceRefresh)
            if json { try context.printJSON(TokenView.json(result)) } else { context.console.out(result.accessToken) }
        }
    }
}

extension NativeSignedIn {
    /// The signed-in customer.
    ///
    /// - Throws: ``CommandFailure`` (exit code 3) when nobody is signed in.
    static func current(_ native: NativeAuthApplication) async throws -> NativeAuthUserAccount {
        guard let user = try await native.currentAccount() else {
            throw CommandFailure(
                "Nobody is signed in; run `msal native signin --email …`.", exitCode: ExitCodes.interactionRequired)
        }
        return user
    }
}
