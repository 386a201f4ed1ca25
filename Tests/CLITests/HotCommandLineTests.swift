import ArgumentParser
import Testing

@testable import MSALCommandLine

/// The commands tools run on every call are read without ArgumentParser (``HotCommandLine``); for every option
/// they take, both readers must give the same command, and anything the hot reader does not know goes to
/// ArgumentParser.
@Suite("Reading msal token, kube get-token and git-credential get without ArgumentParser")
struct HotCommandLineTests {
    static let sameAsArgumentParser: [[String]] = [
        ["token"],
        ["token", "--scopes", "User.Read", "Mail.Read", "--username", "megan@contoso.com", "--format", "az"],
        [
            "token", "--scopes=api://x/.default", "--scopes", "User.Read", "--force-refresh", "--interactive",
            "--decode",
        ],
        [
            "token", "--authority", "https://login.microsoftonline.com/common", "--client-id", "abc", "--json",
            "--cache", "/tmp/c.json", "--ca-bundle", "/tmp/ca.pem", "--verbose", "--log-pii", "--redirect-uri",
            "http://localhost", "--cache-backend", "file", "--graph-endpoint", "https://graph.microsoft.com",
        ],
        ["kube", "get-token", "--server-id", "6dae42f8-4368-4678-94ff-3960e28e3630"],
        [
            "kube", "get-token", "--login", "devicecode", "--server-id", "6dae42f8-4368-4678-94ff-3960e28e3630",
            "--client-id", "80faf920-1908-4b52-b5ef-a8e7bedfc67a", "--tenant-id", "contoso.onmicrosoft.com",
            "--environment", "AzurePublicCloud", "--cache-dir", "/d",
        ],
        [
            "kube", "get-token", "-l", "spn", "--server-id=s", "-t", "t", "-e", "AzureChinaCloud", "--authority-host",
            "https://login.example/", "--client-certificate", "/c.pem", "--federated-token-file", "/f",
            "--identity-resource-id", "/subscriptions/x", "--token-cache-dir", "/e",
        ],
        ["git-credential", "get"],
        ["git-credential", "--host", "127.0.0.1:8080", "--host", "git.contoso.com", "get"],
        ["git-credential", "get", "--managed-identity", "--client-id", "id", "--cache", "/tmp/c.json"],
    ]

    @Test("each command line gives the options ArgumentParser gives", arguments: sameAsArgumentParser)
    func sameCommand(_ arguments: [String]) throws {
        let hot = try #require(HotCommandLine.command(arguments), "read without ArgumentParser")
        let parsed: any HotCommand =
            switch try MSALCommand.parseAsRoot(arguments) {
            case let command as Token: command.options
            case let command as KubeGetToken: command.options
            case let command as GitCredential: command.options
            case let command: throw UnexpectedCommand(type: "\(type(of: command))")
            }
        let same = Self.same(hot, parsed)
        #expect(same, "\(hot) is not \(parsed)")
        // The description carries the values: each one given is in it.
        let description = String(describing: hot)
        let path: Set = ["token", "kube", "get-token", "git-credential", "get"]
        for value in arguments where !value.hasPrefix("-") && !path.contains(value) {
            #expect(description.contains(value), "\(value) in \(description)")
        }
    }

    @Test(
        "help, --version, unknown or malformed options, a global option first and refused values go to ArgumentParser",
        arguments: [
            ["token", "--help"], ["token", "-h"], ["--version"], ["token", "--version"], ["token", "--scopes"],
            ["token", "--nope"], ["token", "extra"], ["--json", "token"], ["token", "--format", "yaml"],
            ["token", "--json", "--format", "az"], ["token", "--json=yes"], ["token", "--username"],
            ["kube", "get-token"], ["kube", "get-token", "--server-id", "s", "--client-secret", "x"],
            ["kube", "get-token", "--server-id", "s", "--environment", "Mars"], ["kube", "get-token", "-lspn"],
            ["git-credential", "store"], ["git-credential", "erase"], ["git-credential"],
            ["git-credential", "get", "get"], ["git-credential", "--host", "get"], ["login"], [],
            ["token", "--", "x"], ["token", "-"],
        ])
    func toArgumentParser(_ arguments: [String]) {
        #expect(HotCommandLine.command(arguments) == nil)
    }

    /// Whether two values of the options are of the same command and equal.
    static func same<Command: HotCommand>(_ command: Command, _ other: any HotCommand) -> Bool {
        (other as? Command) == command
    }

    /// ArgumentParser read a command that is not one of the hot ones.
    struct UnexpectedCommand: Error {
        let type: String
    }
}
