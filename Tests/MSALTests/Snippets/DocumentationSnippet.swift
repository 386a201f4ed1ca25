import Foundation

/// A ```` ```swift ```` block of a Markdown file, and the Swift file that type-checks it.
///
/// The conventions, for whoever writes the documentation:
///
/// - Every ```` ```swift ```` block is compiled; other languages (`sh`, `json`, `python`) are not.
/// - A block's statements run in `func run() async throws`, a method of a `@MainActor final class` of its own, so
///   `try`, `await` and `self` work as in an app. Its `import` lines are hoisted above the class; `Foundation` and
///   `MSAL` are imported in every block, as every page here assumes them.
/// - What a block assumes without showing it (a `clientID`, an `account`, a delegate method) is declared in an HTML
///   comment right before the block, `<!-- snippet-context` … `-->`, whose lines become members of that class
///   (stored properties need a value, e.g. `var account: Account!`). GitHub and DocC show neither the comment nor
///   its lines.
/// - A block that imports `PackageDescription` is a package manifest and is compiled as one.
/// - A block that imports `Testing` is a test file, compiled as written (its declarations at the top level); the
///   same code is one of the package's tests, so it runs too.
struct DocumentationSnippet: Equatable, CustomStringConvertible {
    /// The Markdown file's path, as given to ``extract(from:file:)``.
    var file: String
    /// The 1-based line of the block's first line of code.
    var line: Int
    /// The block's code, its fence's indentation removed.
    var code: [String]
    /// The snippet-context comment's lines, and the line of the first.
    var context: [String] = []
    var contextLine = 0

    var description: String { "\(file):\(line)" }

    /// Whether the block is a package manifest (`import PackageDescription`).
    var isManifest: Bool { code.contains { $0.trimmingCharacters(in: .whitespaces) == "import PackageDescription" } }

    /// Every ```` ```swift ```` block of `markdown`, with the snippet-context comment before it, if any.
    static func extract(from markdown: String, file: String) -> [DocumentationSnippet] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var snippets: [DocumentationSnippet] = []
        var pendingContext: (line: Int, lines: [String])?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<!-- snippet-context") {
                var body: [String] = []
                let first = index + 2
                let indentation = line.prefix { $0 == " " }.count
                index += 1
                while index < lines.count, !trimmed.contains("-->"), !lines[index].contains("-->") {
                    body.append(dedent(lines[index], by: indentation))
                    index += 1
                }
                pendingContext = (first, body)
                if !trimmed.contains("-->") { index += 1 }
                continue
            }
            if trimmed.hasPrefix("```") {
                let indentation = line.prefix { $0 == " " }.count
                let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                var code: [String] = []
                let first = index + 2
                index += 1
                while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                    code.append(dedent(lines[index], by: indentation))
                    index += 1
                }
                index += 1
                if language == "swift" {
                    var snippet = DocumentationSnippet(file: file, line: first, code: code)
                    if let context = pendingContext {
                        snippet.context = context.lines
                        snippet.contextLine = context.line
                    }
                    snippets.append(snippet)
                }
                pendingContext = nil
                continue
            }
            if !trimmed.isEmpty { pendingContext = nil }
            index += 1
        }
        return snippets
    }

    /// `line` without up to `indentation` leading spaces: a block's or comment's lines as written in a list item.
    private static func dedent(_ line: String, by indentation: Int) -> String {
        String(line.dropFirst(min(indentation, line.prefix { $0 == " " }.count)))
    }

    /// The Swift file that type-checks the block, as a member of a class named `name`; `#sourceLocation` makes the
    /// compiler's diagnostics name the Markdown file and its lines.
    /// Whether the block is a test file (`import Testing`).
    var isTestFile: Bool { code.contains { $0.trimmingCharacters(in: .whitespaces) == "import Testing" } }

    func swiftFile(named name: String) -> String {
        let location = { (line: Int) in "#sourceLocation(file: \"\(file)\", line: \(line))" }
        if isManifest || isTestFile { return ([location(line)] + code).joined(separator: "\n") + "\n" }
        let isImport = { (line: String) in line.hasPrefix("import ") || line.hasPrefix("@testable import ") }
        let imports = ["import Foundation", "import MSAL"] + (context + code).filter(isImport)
        let blank = { (line: String) in isImport(line) ? "" : line }
        var out = imports
        out.append("@MainActor final class \(name) {")
        if !context.isEmpty {
            out.append(location(contextLine))
            out += context.map(blank)
            out.append("#sourceLocation()")
        }
        out.append("func run() async throws {")
        out.append(location(line))
        out += code.map(blank)
        out.append("#sourceLocation()")
        out.append("}")
        out.append("}")
        return out.joined(separator: "\n") + "\n"
    }
}
