import ArgumentParser

@main
struct IdentityEmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity-emulator",
        abstract:
            "An offline Microsoft identity platform (Entra ID, External ID) and Microsoft Graph for development and tests.",
        discussion:
            "Stop it with Ctrl-C. The admin API and the dashboard live under /_emulator/ (loopback clients only).",
        subcommands: [ServeCommand.self, TrustCommand.self], defaultSubcommand: ServeCommand.self)
}
