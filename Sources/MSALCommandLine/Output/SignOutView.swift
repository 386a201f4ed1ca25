/// What `msal logout` and `msal native signout` print once done: a line for each account signed out, or with
/// `--json` their usernames as `{"signed_out": […]}`. Nobody signed in is said on standard error (and is `[]`).
enum SignOutView {
    static func report(_ usernames: [String], json: Bool, context: CommandContext) throws {
        if usernames.isEmpty { context.console.err("Nobody is signed in.") }
        if json {
            try context.printJSON(["signed_out": usernames])
        } else {
            for username in usernames { context.console.out("Signed out \(username).") }
        }
    }
}
