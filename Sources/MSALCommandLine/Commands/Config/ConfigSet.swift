import ArgumentParser

/// `msal config set KEY VALUE`: stores a setting in the config file.
struct ConfigSet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Store a setting in the config file.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The setting: \(ConfigFile.keys.sorted().joined(separator: ", ")).", valueName: "key"))
    var key: String

    @Argument(help: "Its value.")
    var value: String

    func run() async throws {
        let (key, value, json) = (key, value, global.json)
        try await global.values.runOnConfigFile { file, console in
            let changed = try file.setting(key, to: value)
            try changed.save()
            try ConfigView.report(changed, json: json, console: console)
        }
    }
}
