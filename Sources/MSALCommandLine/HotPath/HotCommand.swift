/// A command kubectl, git or a script runs on every call (`msal token`, `msal kube get-token`,
/// `msal git-credential get`), as the plain value of its options that ``HotCommandLine`` makes without
/// ArgumentParser.
///
/// ArgumentParser finds a command's options by reflection, and in a binary this size each first look-up of a
/// type's conformance scans all of its conformance records: parsing, and even making the ArgumentParser command
/// with its property wrappers, took a good part of a `msal token` from a warm cache. The table here repeats the
/// command's option names and arities, and `init()` its defaults; `HotCommandLineTests` checks that both readers
/// give the same value for every option.
protocol HotCommand: Sendable, Equatable {
    /// The words that name it, e.g. `["kube", "get-token"]`.
    static var hotPath: [String] { get }
    /// The one operand it takes on this path, anywhere after ``hotPath`` (git-credential's `get`); `nil` for none.
    static var hotOperand: String? { get }
    /// Its options; the global ones are ``GlobalOptionValues/hotOptions``.
    static var hotOptions: [HotOption<Self>] { get }
    /// No option given: the defaults the ArgumentParser command declares (required options aside).
    init()
    /// Its global options.
    var global: GlobalOptionValues { get set }
    /// Refuses values ArgumentParser's `validate()` refuses.
    func validate() throws
    /// Runs the command.
    func run() async throws
}
