import Foundation
import MSAL
import Testing

/// What a shell user installs beside `msal`: the version, completion scripts for bash, zsh and fish, run by each
/// shell, and the manual page, rendered by `man`.
@Suite("msal in the shell: --version, completions, man page", .timeLimit(.minutes(2)))
struct ShellIntegrationTests {
    static let environment = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": "/nonexistent",
        "MANWIDTH": "200",
    ]

    static func msal(_ arguments: [String]) async throws -> CLIResult {
        try await CLIProcess.run(Binaries.url("msal"), arguments, environment: environment)
    }

    /// Runs `program` (found on PATH) with `arguments`; fails naming the package to install when it is missing.
    static func run(_ program: String, _ arguments: [String], package: String) async throws -> CLIResult {
        let path = try #require(
            ["/usr/bin/\(program)", "/bin/\(program)"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "\(program) is not installed: scripts/test installs Debian's \(package)")
        return try await CLIProcess.run(URL(fileURLWithPath: path), arguments, environment: environment)
    }

    /// `msal --generate-completion-script SHELL` in a file of its own.
    static func completionScript(_ shell: String, in folder: URL) async throws -> String {
        let script = try await msal(["--generate-completion-script", shell])
        #expect(script.status == 0, "\(script.stderr)")
        let file = folder.appendingPathComponent("msal.\(shell)")
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    static func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    @Test("msal --version prints the package's version, the one the library sends as x-client-Ver")
    func version() async throws {
        let version = try await Self.msal(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == LibraryIdentity.version + "\n")
    }

    @Test("bash: the script sourced registers msal; it completes subcommands, their options and --format's values")
    func bash() async throws {
        try await Self.withFolder { folder in
            let script = try await Self.completionScript("bash", in: folder)
            // As bash calls a -F function: COMP_* set, then the command, the current word and the previous one.
            let complete = """
                source '\(script)'
                complete -p msal
                ask() { COMPREPLY=(); COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                  _msal msal "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"; echo "${COMPREPLY[*]}"; }
                ask msal de
                ask msal token --fo
                ask msal token --format ''
                """
            let result = try await Self.run("bash", ["--norc", "-c", complete], package: "bash")
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "complete -o filenames -F _msal msal")
            #expect(lines.dropFirst().first?.split(separator: " ").sorted() == ["decode", "demo", "device-info"])
            #expect(lines.dropFirst(2).first?.split(separator: " ").sorted() == ["--force-refresh", "--format"])
            #expect(lines.dropFirst(3).first == "token json az tsv")
        }
    }

    @Test("zsh: the script sourced after compinit registers _msal for msal, with a function per subcommand")
    func zsh() async throws {
        try await Self.withFolder { folder in
            let script = try await Self.completionScript("zsh", in: folder)
            let check = """
                autoload -U compinit && compinit -u -d '\(folder.path)/zcompdump'
                source '\(script)'
                print -r -- $_comps[msal]
                whence -w _msal_decode _msal_token
                """
            let result = try await Self.run("zsh", ["-f", "-c", check], package: "zsh")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "_msal\n_msal_decode: function\n_msal_token: function\n")
        }
    }

    @Test("fish: the script sourced completes subcommands and --format's values (complete -C)")
    func fish() async throws {
        try await Self.withFolder { folder in
            let script = try await Self.completionScript("fish", in: folder)
            let check = "source '\(script)'; complete -C 'msal dec'; complete -C 'msal token --format '"
            let result = try await Self.run("fish", ["--no-config", "-c", check], package: "fish")
            #expect(result.status == 0, "\(result.stderr)")
            let words = result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
            #expect(words == ["decode", "token", "json", "az", "tsv"], "\(result.stdout)")
        }
    }

    @Test("the manual page (swift-argument-parser's generate-manual, as scripts/man-page runs it) renders with man")
    func manualPage() async throws {
        let generator = Binaries.url("generate-manual")
        try #require(
            FileManager.default.isExecutableFile(atPath: generator.path),
            "generate-manual is not built: scripts/test builds it (swift build --product generate-manual)")
        try await Self.withFolder { folder in
            let generated = try await CLIProcess.run(
                generator, [Binaries.url("msal").path, "--output-directory", folder.path],
                environment: Self.environment)
            #expect(generated.status == 0, "\(generated.stderr)")
            let page = folder.appendingPathComponent("msal.1").path
            let rendered = try await Self.run("man", ["-l", page], package: "man-db")
            #expect(rendered.status == 0, "\(rendered.stderr)")
            let text = rendered.stdout.replacing(#/.\x08/#, with: "")
            #expect(text.contains("NAME") && text.contains("SYNOPSIS"), "\(text.prefix(400))")
            for word in ["msal decode", "msal token", "--format", "--version", "Exit codes"] {
                #expect(text.contains(word), "\(word)")
            }
        }
    }
}
