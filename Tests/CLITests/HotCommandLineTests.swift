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

    @Test("each command line gives the command ArgumentParser gives", arguments: sameAsArgumentParser)
    func sameCommand(_ arguments: [String]) throws {
        let hot = try #require(HotCommandLine.command(arguments), "read without ArgumentParser")
        let parsed = try MSALCommand.parseAsRoot(arguments)
        let description = String(describing: hot)
        #expect(description == String(describing: parsed))
        // The description carries the values, so equal descriptions are equal commands.
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
}
