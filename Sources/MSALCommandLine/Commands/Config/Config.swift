import ArgumentParser
import Foundation

/// `msal config …`: the config file's settings, shown and changed from the command line.
struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or change the settings in msal's config file.",
        discussion: """
            The file is ${XDG_CONFIG_HOME:-~/.config}/msal/config.json; flags and MSAL_* environment variables \
            override it. Its keys: \(ConfigFile.keys.sorted().joined(separator: ", ")). It keeps no secrets. \
            Example, with identity-emulator on port 8401:
              msal config set authority http://127.0.0.1:8401/contoso.onmicrosoft.com
            """,
        subcommands: [ConfigList.self, ConfigSet.self, ConfigUnset.self], defaultSubcommand: ConfigList.self)
}

extension GlobalOptionValues {
    /// Runs a `msal config` command on the config file; of the global options it takes `--json` and `--verbose`.
    ///
    /// - Throws: ``UsageError`` for another global option or a bad config file; what `body` throws.
    func runOnConfigFile(_ body: @escaping (ConfigFile, Console) throws -> Void) async throws {
        try await reportingFailure { console in
            let ignored = given.filter { $0 != "--json" && $0 != "--verbose" }
            guard ignored.isEmpty else {
                throw UsageError(
                    "msal config edits the config file and takes no \(ignored.joined(separator: ", ")); "
                        + "store a setting with `msal config set KEY VALUE`.")
            }
            try body(try ConfigFile.load(environment: ProcessInfo.processInfo.environment), console)
        }
    }
}
