import ArgumentParser
import Foundation

/// `msal config list`: the settings the config file holds.
struct ConfigList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the settings in the config file, and the variables overriding them.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let json = global.json
        try await global.values.runOnConfigFile { file, console in
            try ConfigView.report(file, json: json, console: console)
        }
    }
}
