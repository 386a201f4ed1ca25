import Foundation

/// Opens the sign-in page for the user: a system browser, a headless test browser, or a prompt.
public protocol BrowserLauncher: Sendable {
    /// Shows `url` to the user. Returning does not mean the user finished; the redirect does.
    ///
    /// - Throws: when the URL cannot be shown at all.
    func open(_ url: URL) async throws
}

/// The Linux default: `$BROWSER` (a `:`-separated list; `%s` stands for the URL), then `xdg-open`;
/// when neither works, the URL is printed on standard error for the user to open.
public struct SystemBrowserLauncher: BrowserLauncher {
    public init() {}

    public func open(_ url: URL) async throws {
        let environment = ProcessInfo.processInfo.environment
        for command in Self.commands(for: url, environment: environment) where Self.launch(command, path: environment["PATH"] ?? "") {
            return
        }
        FileHandle.standardError.write(Data("Open this URL in a browser to sign in:\n\(url.absoluteString)\n".utf8))
    }

    /// The commands to try, in order: each `$BROWSER` entry (`%s` replaced by the URL, else the URL
    /// appended), then `xdg-open URL`.
    static func commands(for url: URL, environment: [String: String]) -> [[String]] {
        let entries = (environment["BROWSER"]?.split(separator: ":").map(String.init) ?? []) + ["xdg-open"]
        return entries.compactMap { entry in
            var words = entry.split(separator: " ").map(String.init)
            guard !words.isEmpty else { return nil }
            if let index = words.firstIndex(where: { $0.contains("%s") }) {
                words[index] = words[index].replacingOccurrences(of: "%s", with: url.absoluteString)
            } else {
                words.append(url.absoluteString)
            }
            return words
        }
    }

    /// Starts the program if it exists on `PATH` (or is a path); does not wait for it.
    private static func launch(_ words: [String], path: String) -> Bool {
        let program = words[0]
        let candidates = program.contains("/") ? [program] : path.split(separator: ":").map { "\($0)/\(program)" }
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(words.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            return true
        } catch {
            return false
        }
    }
}

/// Prints the URL and waits: for SSH sessions and `--no-browser`.
public struct PrintingBrowserLauncher: BrowserLauncher {
    private let write: @Sendable (String) -> Void

    /// - Parameter write: where the instruction goes; standard error by default.
    public init(write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.write = write
    }

    public func open(_ url: URL) async throws {
        write("Open this URL in a browser to sign in:\n\(url.absoluteString)")
    }
}
