import Foundation
import Testing

/// The Swift in the README, the DocC catalog and the other Markdown files is the first code a user copies: every
/// block compiles against the package as built.
@Suite("Documentation snippets compile", .timeLimit(.minutes(5)))
struct DocumentationSnippetTests {
    /// The Markdown files whose Swift blocks are compiled, relative to the package's root.
    static var documents: [String] {
        let root = SnippetCompiler.packageRoot
        var files = ["README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md", "bench/README.md"]
        for folder in ["docs", "Sources/MSAL/MSAL.docc"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path))
            files += (names ?? []).filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        return files.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
    }

    @Test("a swift block is extracted with its line, its fence's indentation and the context comment before it")
    func extraction() {
        let markdown = """
            # Title

            ```sh
            swift run msal demo
            ```

            - In a list:

              <!-- snippet-context
              let clientID = "id"
              -->
              ```swift
              import MSAL
              let id = clientID
              ```

            ```swift
            print(1)
            ```
            """
        let snippets = DocumentationSnippet.extract(from: markdown, file: "X.md")
        #expect(
            snippets == [
                DocumentationSnippet(
                    file: "X.md", line: 13, code: ["import MSAL", "let id = clientID"],
                    context: ["let clientID = \"id\""],
                    contextLine: 10),
                DocumentationSnippet(file: "X.md", line: 18, code: ["print(1)"]),
            ])
        let source = snippets[0].swiftFile(named: "S")
        #expect(source.hasPrefix("import Foundation\nimport MSAL\nimport MSAL\n@MainActor final class S {\n"))
        #expect(source.contains("#sourceLocation(file: \"X.md\", line: 13)\n\nlet id = clientID\n"))
    }

    @Test("a block that does not compile fails, naming the Markdown file, the line and the compiler's message")
    func brokenSnippetFails() async throws {
        let markdown = """
            Some text.

            ```swift
            import MSAL

            let configuration = try PublicClientApplicationConfiguration(clientIdentifier: "id")
            ```
            """
        let outcome = try await SnippetCompiler().typecheck(
            DocumentationSnippet.extract(from: markdown, file: "Broken.md"))
        #expect(!outcome.succeeded)
        #expect(outcome.output.contains("Broken.md:6:"), "\(outcome.output)")
    }

    @Test("a package manifest block is compiled as a manifest")
    func manifest() async throws {
        let markdown = """
            ```swift
            // swift-tools-version:6.1
            import PackageDescription

            let package = Package(name: 42)
            ```
            """
        let outcome = try await SnippetCompiler().typecheck(DocumentationSnippet.extract(from: markdown, file: "M.md"))
        #expect(!outcome.succeeded)
        #expect(outcome.output.contains("M.md:5:"), "\(outcome.output)")
    }

    @Test("a test file in the documentation is one of the package's tests, word for word, so it runs")
    func testFilesRun() throws {
        var tests: [String] = []
        let root = SnippetCompiler.packageRoot
        let files = FileManager.default.enumerator(atPath: root.appendingPathComponent("Tests").path)
        while let path = files?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            tests.append(try String(contentsOf: root.appendingPathComponent("Tests/\(path)"), encoding: .utf8))
        }
        var found = 0
        for document in Self.documents {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            for snippet in DocumentationSnippet.extract(from: text, file: document) where snippet.isTestFile {
                found += 1
                let code = snippet.code.joined(separator: "\n")
                #expect(tests.contains { $0.contains(code) }, "\(snippet) is not the code of a test under Tests/")
            }
        }
        #expect(found >= 2, "the README shows how to test a Hummingbird and a Vapor route")
    }

    @Test("every swift block of the README, the DocC catalog and docs/ compiles")
    func everyDocumentCompiles() async throws {
        var snippets: [DocumentationSnippet] = []
        for document in Self.documents {
            let text = try String(
                contentsOf: SnippetCompiler.packageRoot.appendingPathComponent(document), encoding: .utf8)
            snippets += DocumentationSnippet.extract(from: text, file: document)
        }
        #expect(snippets.contains { $0.file == "README.md" })
        #expect(snippets.contains { $0.file.hasPrefix("Sources/MSAL/MSAL.docc/") })
        let outcome = try await SnippetCompiler().typecheck(snippets)
        #expect(
            outcome.succeeded,
            "These documentation snippets do not compile (\(snippets.count) checked):\n\(outcome.output)")
    }
}
