import ArgumentParser

/// A command kubectl, git or a script runs on every call (`msal token`, `msal kube get-token`,
/// `msal git-credential get`), which ``HotCommandLine`` reads without ArgumentParser.
///
/// ArgumentParser finds a command's options by reflection, and in a binary this size each first look-up of a
/// type's conformance scans all of its 11,000 conformance records: parsing took about half of a 15 ms
/// `msal token`. The table here repeats the command's option names, arities and defaults; `HotCommandLineTests`
/// checks that both readers give the same command for every option.
protocol HotCommand: AsyncParsableCommand {
    /// The words that name it, e.g. `["kube", "get-token"]`.
    static var hotPath: [String] { get }
    /// The one operand it takes on this path, anywhere after ``hotPath`` (git-credential's `get`); `nil` for none.
    static var hotOperand: String? { get }
    /// Its options; the global ones are ``GlobalOptions/hotOptions``.
    static var hotOptions: [HotOption<Self>] { get }
    /// The command as ArgumentParser makes it when no option is given (required options aside).
    static func hotDefault() -> Self
    /// Where its global options go.
    var global: GlobalOptions { get set }
}
