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
        for command in Self.candidates(environment: ProcessInfo.processInfo.environment) where Self.run(command, url: url) {
            return
        }
        FileHandle.standardError.write(Data("Open this URL in a browser to sign in:\n\(url.absoluteString)\n".utf8))
    }

    static func candidates(environment: [String: String]) -> [String] {
        (environment["BROWSER"]?.split(separator: ":").map(String.init) ?? []) + ["xdg-open"]
    }

    private static func run(_ command: String, url: URL) -> Bool {
        var words = command.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return false }
        if let index = words.firstIndex(where: { $0.contains("%s") }) {
            words[index] = words[index].replacingOccurrences(of: "%s", with: url.absoluteString)
        } else {
            words.append(url.absoluteString)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = words
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
