import ArgumentParser
import Foundation
import Testing

@testable import MSALCommandLine

@Suite("msal settings, argument parsing and output")
struct SettingsAndOutputTests {
    static let file = ConfigFile(
        url: URL(fileURLWithPath: "/config.json"),
        values: [
            "authority": "https://file.example/common", "client_id": "file-client",
            "token_cache": "/file/cache.json", "graph_endpoint": "https://graph.file.example",
        ])

    @Test("each setting comes from the flag, else the environment, else the config file, else the default")
    func precedence() throws {
        let environment = [
            "MSAL_AUTHORITY": "https://env.example/common", "MSAL_CLIENT_ID": "env-client", "HOME": "/home/u",
        ]
        let flags = try GlobalOptions.parse(["--authority", "https://flag.example/organizations"]).values
        let settings = Settings.resolve(flags, environment: environment, file: Self.file)
        #expect(settings.authority == .init(value: "https://flag.example/organizations", origin: .flag))
        #expect(settings.clientID == .init(value: "env-client", origin: .environment))
        #expect(settings.cachePath == .init(value: "/file/cache.json", origin: .configFile))
        #expect(settings.graphEndpoint == .init(value: "https://graph.file.example", origin: .configFile))
        #expect(settings.redirectURI == .init(value: "http://localhost", origin: .defaultValue))
        #expect(settings.caBundle == nil)
    }

    @Test("with nothing set, every default points at the emulator's demo tenant and client on 127.0.0.1:8400")
    func defaults() throws {
        let settings = Settings.resolve(
            try GlobalOptions.parse([]).values, environment: ["HOME": "/home/u"],
            file: ConfigFile(url: URL(fileURLWithPath: "/none"), values: [:]))
        #expect(settings.authority.value == "http://127.0.0.1:8400/contoso.onmicrosoft.com")
        #expect(settings.clientID.value == "9f1b8c3e-2d4a-4b6e-8f0a-1c2d3e4f5a6b")
        #expect(settings.cachePath.value == "/home/u/.cache/msal/token_cache.json")
        #expect(settings.graphMe?.absoluteString == "http://127.0.0.1:8400/v1.0/me")
        let production = Settings.resolve(
            try GlobalOptions.parse(["--authority", "https://login.microsoftonline.com/common"]).values,
            environment: ["XDG_CACHE_HOME": "/xdg"], file: ConfigFile(url: URL(fileURLWithPath: "/none"), values: [:]))
        #expect(production.graphMe?.absoluteString == "https://graph.microsoft.com/v1.0/me")
        #expect(production.cachePath.value == "/xdg/msal/token_cache.json")
    }

    @Test("the config file lives under XDG_CONFIG_HOME and rejects unknown keys and non-strings")
    func configFile() throws {
        #expect(ConfigFile.location(environment: ["XDG_CONFIG_HOME": "/x"]).path == "/x/msal/config.json")
        #expect(ConfigFile.location(environment: ["HOME": "/home/u"]).path == "/home/u/.config/msal/config.json")
        let url = URL(fileURLWithPath: "/c.json")
        #expect(try ConfigFile.parse(Data(#"{"client_id":"a"}"#.utf8), url: url).values == ["client_id": "a"])
        #expect(throws: UsageError.self) { try ConfigFile.parse(Data(#"{"clientId":"a"}"#.utf8), url: url) }
        #expect(throws: UsageError.self) { try ConfigFile.parse(Data(#"{"client_id":1}"#.utf8), url: url) }
        #expect(throws: UsageError.self) { try ConfigFile.parse(Data("[]".utf8), url: url) }
    }

    @Test("commands parse their options; scopes may be space- or comma-separated")
    func parsing() throws {
        let login =
            try MSALCommand.parseAsRoot([
                "login", "--scopes", "User.Read,Mail.Read", "Files.Read", "--prompt", "select_account",
            ]) as? Login
        #expect(login.map { ScopeList.split($0.scopes) } == ["User.Read", "Mail.Read", "Files.Read"])
        #expect(login?.prompt == .selectAccount)
        #expect(throws: (any Error).self) { try MSALCommand.parseAsRoot(["login", "--prompt", "sometimes"]) }
        #expect(throws: (any Error).self) { try MSALCommand.parseAsRoot(["logout", "--all", "--username", "a@b"]) }
        let token =
            try MSALCommand.parseAsRoot(["token", "--scopes", "api://x/.default", "--force-refresh", "--json"])
            as? Token
        #expect(token?.forceRefresh == true && token?.global.json == true)
        let call =
            try MSALCommand.parseAsRoot(["call", "https://api.example/x", "--scopes", "s", "-X", "post", "-d", "{}"])
            as? Call
        #expect(call?.method == "post" && call?.data == "{}")
    }

    @Test("the profile and accounts tables match their golden output")
    func tables() throws {
        let profile: [String: Any] = [
            "displayName": "Megan Bowen", "givenName": "Megan", "surname": "Bowen",
            "userPrincipalName": "MeganB@contoso.onmicrosoft.com",
            "mail": "MeganB@contoso.onmicrosoft.com", "jobTitle": "Marketing Manager", "officeLocation": "12/1110",
            "mobilePhone": NSNull(),
            "businessPhones": ["+1 412 555 0109"], "preferredLanguage": "en-US",
            "id": "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f",
        ]
        try Golden.check(ProfileView.render(profile) + "\n", "me")
        let accounts = [
            AccountView(
                username: "MeganB@contoso.onmicrosoft.com", name: "Megan Bowen", homeTenant: "t1",
                tenants: ["t1", "t2"],
                homeAccountID: "o.t1", environment: "login.microsoftonline.com", isCurrent: true),
            AccountView(
                username: "sam@example.com", name: "", homeTenant: "t3", tenants: ["t3"],
                homeAccountID: "o.t3", environment: "login.microsoftonline.com", isCurrent: false),
        ]
        try Golden.check(AccountView.table(accounts) + "\n", "accounts-table")
    }

    @Test("terminal text: escape sequences, carriage returns, C1 controls and bidi overrides dropped; lines kept")
    func terminalText() {
        #expect(TerminalText.safe("plain\ttext\nline two") == "plain\ttext\nline two")
        #expect(
            TerminalText.safe("\u{1B}[2J\u{1B}]0;title\u{07}x\ry\u{9B}1m\u{7F}\u{202E}z\u{2066}") == "[2J]0;titlexy1mz")
    }
}
