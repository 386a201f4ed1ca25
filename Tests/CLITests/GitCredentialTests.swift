import Foundation
import IdentityEmulator
import MSAL
import Testing

@testable import MSALCommandLine

/// `msal git-credential` as git's credential helper, with a real git against a smart-HTTP server on loopback that
/// takes only the emulator's Azure DevOps tokens as passwords.
@Suite("msal git-credential")
struct GitCredentialTests {
    static let ids = Directory.DemoIDs.self

    /// A sandbox, a running git server with one empty repository, and git run with `msal git-credential` as its
    /// helper for the server's host.
    struct Setup: Sendable {
        let emulator: RunningEmulator
        let sandbox: CLISandbox
        let server: GitHTTPServer

        var helper: String { "!\(Binaries.url("msal").path) git-credential --host 127.0.0.1:\(server.port)" }

        /// Runs git in `folder` (the sandbox's root by default), its configuration isolated (HOME is the sandbox,
        /// no system file, no prompts), with `helpers` in place of any configured credential helper.
        func git(
            _ arguments: [String], in folder: URL? = nil, helpers: [String]? = nil, _ extra: [String: String] = [:]
        )
            async throws -> CLIResult
        {
            let credential =
                ["-c", "credential.helper="] + (helpers ?? [helper]).flatMap { ["-c", "credential.helper=\($0)"] }
            var environment = sandbox.environment(extra)
            environment.merge(GitHTTPServer.gitEnvironment(home: sandbox.root.path)) { mine, _ in mine }
            environment.merge([
                "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid", "GIT_COMMITTER_NAME": "Test",
                "GIT_COMMITTER_EMAIL": "test@example.invalid",
            ]) { $1 }
            return try await CLIProcess.run(
                URL(fileURLWithPath: "/usr/bin/git"), ["-C", (folder ?? sandbox.root).path] + credential + arguments,
                environment: environment)
        }

        /// Clones the repository into `name`, commits a file and pushes it; expects each step to succeed.
        func cloneCommitPush(_ name: String, _ extra: [String: String] = [:]) async throws -> URL {
            let clone = try await git(["clone", "-q", server.url("repo"), name], extra)
            #expect(clone.status == 0, "\(clone.stderr)")
            let folder = sandbox.root.appendingPathComponent(name)
            try Data("\(name)\n".utf8).write(to: folder.appendingPathComponent("\(name).txt"))
            let add = try await git(["add", "."], in: folder, extra)
            #expect(add.status == 0, "\(add.stderr)")
            let commit = try await git(["commit", "-q", "-m", "Add \(name)"], in: folder, extra)
            #expect(commit.status == 0, "\(commit.stderr)")
            let push = try await git(["push", "-q", "origin", "HEAD:main"], in: folder, extra)
            #expect(push.status == 0, "\(push.stderr)")
            return folder
        }

        /// How many token requests the emulator has served.
        func tokenRequests() async throws -> Int {
            try await CLICommandTests.served(emulator, path: "/oauth2/v2.0/token").count
        }
    }

    static func withSetup(_ body: @Sendable (Setup) async throws -> Void) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            var configuration = try AccessTokenValidator.Configuration(
                authority: try Authority(emulator.authority("organizations").absoluteString),
                audiences: [AzureReposHost.resource])
            // As Azure DevOps: a service principal is authorized by its membership of the organization, not a role.
            configuration.allowsAuthorizationByACL = true
            try await GitHTTPServer.withRunning(
                validator: AccessTokenValidator(configuration: configuration), scratch: sandbox.root
            ) { server in
                try await server.createRepository("repo")
                try await body(Setup(emulator: emulator, sandbox: sandbox, server: server))
            }
        }
    }

    @Test("the signed-in user clones and pushes; one token request, the token then comes from the cache")
    func signedInUser() async throws {
        try await Self.withSetup { setup in
            try await setup.sandbox.loginAsMegan()
            let before = try await setup.tokenRequests()
            _ = try await setup.cloneCommitPush("first")
            let second = try await setup.git(["clone", "-q", setup.server.url("repo"), "second"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(
                FileManager.default.fileExists(
                    atPath: setup.sandbox.root.appendingPathComponent("second/first.txt").path),
                "the pushed commit is on the server")
            #expect(try await setup.tokenRequests() == before + 1)
            let accepted = setup.server.acceptedPasswords
            #expect(!accepted.isEmpty && Set(accepted).count == 1)
            let claims = try AzureCLITests.claims(accepted.first)
            #expect(claims["aud"] as? String == AzureReposHost.resource)
            #expect(claims["upn"] as? String == CLICommandTests.megan.0)
        }
    }

    @Test("a wrong password or a token for another audience is refused: git fails; msal's erase of it removes nothing")
    func wrongToken() async throws {
        try await Self.withSetup { setup in
            try await setup.sandbox.loginAsMegan()
            let garbage = "!f() { echo username=someone; echo password=not-a-token; }; f"
            let refused = try await setup.git(
                ["clone", "-q", setup.server.url("repo"), "garbage"], helpers: [garbage, setup.helper])
            #expect(refused.status != 0)
            let graph = try await setup.sandbox.msal(["token"])
            #expect(graph.status == 0, "\(graph.stderr)")
            let otherAudience =
                "!f() { echo username=someone; echo password=\(graph.stdout.trimmingCharacters(in: .whitespacesAndNewlines)); }; f"
            let wrongAudience = try await setup.git(
                ["clone", "-q", setup.server.url("repo"), "graph"], helpers: [otherAudience, setup.helper])
            #expect(wrongAudience.status != 0)
            #expect(setup.server.unauthorizedCount >= 2)
            #expect(setup.server.acceptedPasswords.isEmpty)

            let before = try await setup.tokenRequests()
            _ = try await setup.cloneCommitPush("right")
            let accepted = try #require(setup.server.acceptedPasswords.first)
            #expect(try await setup.tokenRequests() == before + 1)
            // git erased the refused passwords with msal too: the cached Azure DevOps token stayed.
            let again = try await setup.git(["clone", "-q", setup.server.url("repo"), "again"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try await setup.tokenRequests() == before + 1)
            #expect(setup.server.acceptedPasswords.allSatisfy { $0 == accepted })
        }
    }

    @Test("erase: after the server refuses the cached token, git erases it and the next get gets a new one")
    func erase() async throws {
        try await Self.withSetup { setup in
            try await setup.sandbox.loginAsMegan()
            let folder = try await setup.cloneCommitPush("work")
            let first = try #require(setup.server.acceptedPasswords.last)
            let before = try await setup.tokenRequests()
            setup.server.refuse(first)
            let refused = try await setup.git(["fetch", "-q"], in: folder)
            #expect(refused.status != 0)
            #expect(try await setup.tokenRequests() == before, "erase asks the identity platform nothing")
            let fetched = try await setup.git(["fetch", "-q"], in: folder)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try await setup.tokenRequests() == before + 1)
            let second = try #require(setup.server.acceptedPasswords.last)
            #expect(second != first)
        }
    }

    @Test("a service principal (secret) and a workload identity (federated token file) from the AZURE_* variables")
    func environmentCredential() async throws {
        try await Self.withSetup { setup in
            let app = [
                "AZURE_CLIENT_ID": Self.ids.confidentialClient, "AZURE_TENANT_ID": Self.ids.contosoTenant,
            ]
            _ = try await setup.cloneCommitPush(
                "secret", app.merging(["AZURE_CLIENT_SECRET": Self.ids.confidentialSecret]) { $1 })
            let secretToken = try AzureCLITests.claims(setup.server.acceptedPasswords.last)
            #expect(secretToken["appid"] as? String == Self.ids.confidentialClient)
            #expect(secretToken["aud"] as? String == AzureReposHost.resource)
            #expect(secretToken["upn"] == nil)

            let tokenFile = setup.sandbox.root.appendingPathComponent("federated-token")
            try Data(try await AppTokenCommandTests.mintWorkloadToken(setup.emulator).utf8).write(to: tokenFile)
            let workload = try await setup.git(
                ["clone", "-q", setup.server.url("repo"), "workload"],
                app.merging(["AZURE_FEDERATED_TOKEN_FILE": tokenFile.path]) { $1 })
            #expect(workload.status == 0, "\(workload.stderr)")
        }
    }

    @Test("--managed-identity: the host's managed identity's token")
    func managedIdentity() async throws {
        try await Self.withSetup { setup in
            let vm = try #require(setup.emulator.managedIdentityEnvironment(host: "vm-1"))
            let clone = try await setup.git(
                ["clone", "-q", setup.server.url("repo"), "vm"], helpers: [setup.helper + " --managed-identity"], vm)
            #expect(clone.status == 0, "\(clone.stderr)")
            let claims = try AzureCLITests.claims(setup.server.acceptedPasswords.last)
            #expect(claims["aud"] as? String == AzureReposHost.resource)
        }
    }

    @Test("nobody signed in: no answer on standard output, how to sign in on standard error")
    func notSignedIn() async throws {
        try await Self.withSetup { setup in
            let get = try await setup.sandbox.msal(
                ["git-credential", "--host", "127.0.0.1:\(setup.server.port)", "get"], [:],
                input: "protocol=http\nhost=127.0.0.1:\(setup.server.port)\n")
            #expect(get.stdout.isEmpty)
            #expect(get.stderr.contains("msal login"), "\(get.stderr)")
            let clone = try await setup.git(["clone", "-q", setup.server.url("repo"), "nobody"])
            #expect(clone.status != 0)
        }
    }

    @Test("other hosts, plain http off this machine and store get no answer and exit 0, without reading the cache")
    func passedOver() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator)
            defer { sandbox.remove() }
            try await sandbox.loginAsMegan()
            // An unreadable cache setting: a command that read it would fail.
            let unreadable = ["MSAL_TOKEN_CACHE": "postgres://nobody@127.0.0.1:1/none"]
            for (arguments, input) in [
                (["get"], "protocol=https\nhost=github.com\npath=contoso/repo.git\n"),
                (["--host", "git.contoso.test", "get"], "protocol=http\nhost=git.contoso.test\n"),
                (["get"], "protocol=http\nhost=dev.azure.com\n"),
                (["store"], "protocol=https\nhost=dev.azure.com\nusername=u\npassword=p\n"),
                (["erase"], "protocol=https\nhost=github.com\npassword=p\n"),
            ] {
                let result = try await sandbox.msal(["git-credential"] + arguments, unreadable, input: input)
                #expect(result.status == 0, "\(arguments) \(input): \(result.stderr)")
                #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(arguments) \(input)")
            }
        }
    }

    @Test("Azure Repos hosts over https, --host ones over https or on loopback over http; nothing else")
    func hosts() {
        let hosts = AzureReposHost(extraHosts: ["Git.Contoso.test", "127.0.0.1:8080", "localhost", "[::1]:99"])
        #expect(hosts.serves(protocol: "https", host: "dev.azure.com"))
        #expect(hosts.serves(protocol: "https", host: "contoso.visualstudio.com"))
        #expect(hosts.serves(protocol: "https", host: "git.contoso.test"))
        #expect(hosts.serves(protocol: "http", host: "127.0.0.1:8080"))
        #expect(hosts.serves(protocol: "http", host: "localhost"))
        #expect(hosts.serves(protocol: "http", host: "[::1]:99"))
        #expect(!hosts.serves(protocol: "http", host: "dev.azure.com"))
        #expect(!hosts.serves(protocol: "http", host: "git.contoso.test"))
        #expect(!hosts.serves(protocol: "https", host: "github.com"))
        #expect(!hosts.serves(protocol: "https", host: "visualstudio.com.evil.example"))
        #expect(!hosts.serves(protocol: "https", host: "127.0.0.1:8081"))
        #expect(!hosts.serves(protocol: nil, host: "dev.azure.com"))
        #expect(!hosts.serves(protocol: "ssh", host: "dev.azure.com"))
    }

    @Test("git's request: key=value lines to the first blank line; the first of a repeated key wins")
    func message() {
        var lines = ["protocol=https", "host=dev.azure.com", "wwwauth[]=Basic", "wwwauth[]=Bearer", "junk", "", "x=y"]
            .makeIterator()
        let message = GitCredentialMessage { lines.next() }
        #expect(message["protocol"] == "https")
        #expect(message["host"] == "dev.azure.com")
        #expect(message["wwwauth[]"] == "Basic")
        #expect(message["x"] == nil)
        #expect(message["junk"] == nil)
    }
}
