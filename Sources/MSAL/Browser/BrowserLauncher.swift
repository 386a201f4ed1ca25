import Foundation

/// Opens the sign-in page for the user: a system browser, a headless test browser, or a prompt.
public protocol BrowserLauncher: Sendable {
    /// Shows `url` to the user. Returning does not mean the user finished; the redirect does.
    ///
    /// - Throws: when the URL cannot be shown at all.
    func open(_ url: URL) async throws
}

/// The launcher configurations start with: ``SystemBrowserLauncher`` where the library can start programs
/// (Linux, macOS); elsewhere (iOS, tvOS, watchOS, visionOS) one that fails until the app supplies its own.
func defaultBrowserLauncher() -> any BrowserLauncher {
    #if os(Linux) || os(macOS)
        SystemBrowserLauncher()
    #else
        MissingBrowserLauncher()
    #endif
}

/// Prints the URL and waits: for SSH sessions and `--no-browser`.
public struct PrintingBrowserLauncher: BrowserLauncher {
    private let write: @Sendable (String) -> Void

    /// A launcher that writes the instruction with `write`.
    ///
    /// - Parameter write: where the instruction goes; standard error by default.
    public init(
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        self.write = write
    }

    /// Writes the URL with an instruction to open it.
    public func open(_ url: URL) async throws {
        write("Open this URL in a browser to sign in:\n\(url.absoluteString)")
    }
}
