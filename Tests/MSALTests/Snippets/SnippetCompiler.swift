import ChildProcesses
import Foundation

/// Type-checks documentation snippets with `swiftc -typecheck` against the modules of the build this test runs
/// from: no package is built for them, so all of a run's snippets cost one compiler run (and the manifests one more).
struct SnippetCompiler {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// What the compiler said about a set of snippets.
    struct Outcome {
        var status: Int32
        var output: String
        var succeeded: Bool { status == 0 }
    }

    /// The build's products folder (`.build/<triple>/debug`): the one holding this test bundle, whose `Modules`
    /// folder has every module of the package and its dependencies.
    let products: URL

    init() {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // The test runner is `<products>/swift-msalPackageTests.xctest`; the loop also finds it from within a bundle.
        while folder.path != "/",
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Modules/MSAL.swiftmodule").path)
        {
            folder = folder.deletingLastPathComponent()
        }
        products = folder
    }

    /// `-Xcc -fmodule-map-file=` for each C module the Swift modules import: those the build generated beside the
    /// products and those the package and its checkouts ship in an `include` folder.
    private var moduleMapArguments: [String] {
        let files = FileManager.default
        var maps: [String] = []
        for entry in (try? files.contentsOfDirectory(atPath: products.path)) ?? [] where entry.hasSuffix(".build") {
            let map = products.appendingPathComponent(entry).appendingPathComponent("module.modulemap")
            if files.fileExists(atPath: map.path) { maps.append(map.path) }
        }
        let scratch = products.deletingLastPathComponent().deletingLastPathComponent()
        var sourceFolders = [Self.packageRoot.appendingPathComponent("Sources")]
        let checkouts = scratch.appendingPathComponent("checkouts")
        for checkout in (try? files.contentsOfDirectory(atPath: checkouts.path)) ?? [] {
            sourceFolders.append(checkouts.appendingPathComponent(checkout).appendingPathComponent("Sources"))
        }
        for sources in sourceFolders {
            for target in (try? files.contentsOfDirectory(atPath: sources.path)) ?? [] {
                let map = sources.appendingPathComponent(target).appendingPathComponent("include/module.modulemap")
                if files.fileExists(atPath: map.path) { maps.append(map.path) }
            }
        }
        return maps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
    }

    /// Type-checks `snippets`: library snippets in one compiler run, each manifest in one of its own.
    func typecheck(_ snippets: [DocumentationSnippet]) async throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let moduleCache = products.appendingPathComponent("ModuleCache").path
        var outcome = Outcome(status: 0, output: "")
        var library: [String] = []
        for (number, snippet) in snippets.enumerated() {
            let file = folder.appendingPathComponent("Snippet\(number).swift")
            try snippet.swiftFile(named: "Snippet\(number)").write(to: file, atomically: true, encoding: .utf8)
            if snippet.isManifest {
                let manifestAPI = try Self.toolchainLibrary().appendingPathComponent("swift/pm/ManifestAPI").path
                let one = try await Self.swiftc(
                    ["-typecheck", "-I", manifestAPI, "-package-description-version", "6.1", file.path], in: folder)
                outcome.status = max(outcome.status, one.status)
                outcome.output += one.output
            } else {
                library.append(file.path)
            }
        }
        guard !library.isEmpty else { return outcome }
        let arguments =
            ["-typecheck", "-swift-version", "6", "-module-cache-path", moduleCache]
            + ["-I", products.appendingPathComponent("Modules").path] + moduleMapArguments + library
        let all = try await Self.swiftc(arguments, in: folder)
        outcome.status = max(outcome.status, all.status)
        outcome.output += all.output
        return outcome
    }

    /// The toolchain's `lib` folder, beside the `bin` folder that holds `swiftc`.
    private static func toolchainLibrary() throws -> URL {
        try swiftcPath().resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib")
    }

    /// `swiftc` from `$PATH` (the toolchain running the tests puts its own first).
    private static func swiftcPath() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw SnippetCompilerFailure(description: "swiftc is not on PATH (\(path))")
    }

    /// Runs `swiftc` with `arguments`, its standard output and error into one file of `folder`.
    private static func swiftc(_ arguments: [String], in folder: URL) async throws -> Outcome {
        let log = folder.appendingPathComponent("swiftc-\(UUID().uuidString).log")
        let process = try ChildProcess(
            try swiftcPath().path, arguments, workingDirectory: folder.path, output: .file(log.path),
            error: .standardOutput)
        let status = try await process.exit().shellStatus
        return Outcome(status: status, output: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
}

/// The compiler could not be run.
struct SnippetCompilerFailure: Error, CustomStringConvertible {
    var description: String
}
