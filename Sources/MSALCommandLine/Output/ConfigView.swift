import Foundation

/// What `msal config` prints: the file's settings as a table (`KEY  VALUE`), or with `--json` as
/// `{"file": PATH, "settings": {…}}`; on standard error, where the file is and which set variable overrides a setting.
enum ConfigView {
    static func report(_ file: ConfigFile, json: Bool, console: Console) throws {
        if json {
            try JSONOutput.print(["file": file.url.path, "settings": file.values], on: console)
        } else if file.values.isEmpty {
            console.err("msal: \(file.url.path) holds no settings; add one with `msal config set KEY VALUE`.")
        } else {
            console.err("msal: the settings in \(file.url.path):")
            console.out(TextTable.render(file.values.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }))
        }
        let environment = ProcessInfo.processInfo.environment
        for key in file.values.keys.sorted() {
            let variable = ConfigFile.environmentVariable(for: key)
            if environment[variable].map({ !$0.isEmpty }) == true {
                console.err("msal: \(variable) is set, and overrides \(key) from the config file.")
            }
        }
    }
}
