import Foundation
import Testing

/// The README starts with the two commands that do everything on a fresh machine, and CI runs the second.
@Suite("The README's two commands")
struct TwoCommandsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The command lines of a shell script, without comments and blank lines.
    static func commands(_ script: String) -> [String] {
        script.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty && !$0.hasPrefix("#")
        }
    }

    @Test(
        "the first block names the demo and scripts/test; .ci/run runs exactly scripts/test, which ends in swift test")
    func twoCommands() throws {
        let readme = try Self.text("README.md")
        let block = try #require(
            readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        let commands = block.split(separator: "\n").map {
            String($0.split(separator: "#")[0]).trimmingCharacters(in: .whitespaces)
        }
        #expect(commands == ["swift run msal demo", "scripts/test"])
        let ci = Self.commands(try Self.text(".ci/run"))
        #expect(ci.last == "exec scripts/test")
        for check in ["scripts/check-style", "scripts/check-portability", "scripts/check-docs"] {
            #expect(ci.contains(check), "\(check) is not run by .ci/run")
            #expect(FileManager.default.isExecutableFile(atPath: Self.repository.appendingPathComponent(check).path))
        }
        let test = try #require(Self.commands(try Self.text("scripts/test")).last)
        #expect(test.hasPrefix("exec swift test ") && test.hasSuffix(#" "$@""#), "\(test)")
        #expect(
            FileManager.default.isExecutableFile(atPath: Self.repository.appendingPathComponent("scripts/test").path))
    }

    @Test("every Python package the interop tests use is pinned to one version")
    func pythonPins() throws {
        let lines = Self.commands(try Self.text("Tests/Interop/requirements.txt"))
        #expect(lines.count > 10)
        for line in lines {
            #expect(
                line.split(separator: "=", omittingEmptySubsequences: false).count == 3 && line.contains("=="),
                "\(line) is not pinned")
        }
        for package in ["msal==", "msal-extensions==", "azure-identity==", "msgraph-sdk=="] {
            #expect(lines.contains { $0.lowercased().hasPrefix(package) }, "\(package) missing")
        }
    }
}
