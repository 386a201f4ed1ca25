import ArgumentParser

/// `msal config unset KEY`: removes a setting from the config file.
struct ConfigUnset: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unset", abstract: "Remove a setting from the config file.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The setting to remove.", valueName: "key"))
    var key: String

    func run() async throws {
        let (key, json) = (key, global.json)
        try await global.values.runOnConfigFile { file, console in
            let changed = try file.removing(key)
            try changed.save()
            try ConfigView.report(changed, json: json, console: console)
        }
    }
}
