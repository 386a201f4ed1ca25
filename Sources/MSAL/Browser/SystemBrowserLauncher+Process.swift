// Linux and macOS, where a process can start a browser; iOS, tvOS, watchOS and visionOS have none.
#if os(Linux) || os(macOS)
    import ChildProcesses
    import Foundation

    /// The default on Linux and macOS: `$BROWSER` when set (a `:`-separated list tried in order; `%s` stands for
    /// the URL), else the opener (`xdg-open` on Linux, `open` on macOS). When none starts, the URL is written for
    /// the user to open, after one line saying why `$BROWSER` did not start (not found, not executable, or it
    /// exited with an error within two seconds). A browser set in `$BROWSER` is the user's choice, so the opener
    /// is not tried after it (as `gh` does).
    public struct SystemBrowserLauncher: BrowserLauncher {
        /// How long a started browser has to fail: one that exits non-zero within it did not show the page.
        /// One still running then is taken to be the browser, which may run until the user closes it.
        static let failureWindow: Duration = .seconds(2)

        private let write: @Sendable (String) -> Void

        /// A launcher that writes the URL with `write` when no browser starts.
        ///
        /// - Parameter write: where the URL goes when no browser starts; standard error by default.
        public init(
            write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        ) {
            self.write = write
        }

        /// Starts `$BROWSER` or the opener with `url`, or writes the URL for the user when none starts.
        public func open(_ url: URL) async throws {
            let environment = ProcessInfo.processInfo.environment
            var failures: [String] = []
            for command in Self.commands(for: url, environment: environment) {
                guard let failure = await Self.launch(command, path: environment["PATH"] ?? "") else { return }
                failures.append(failure)
            }
            if Self.browserVariable(environment) != nil {
                let reasons = failures.joined(separator: "; ")
                write(
                    "Could not start $BROWSER (\(reasons)); open this URL in a browser to sign in:\n\(url.absoluteString)"
                )
            } else {
                write("Open this URL in a browser to sign in:\n\(url.absoluteString)")
            }
        }

        /// The commands to try, in order: each `$BROWSER` entry (`%s` replaced by the URL, else the URL
        /// appended), or the opener and the URL when `$BROWSER` is not set.
        static func commands(for url: URL, environment: [String: String]) -> [[String]] {
            let entries = browserVariable(environment)?.split(separator: ":").map(String.init) ?? [opener]
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

        /// `$BROWSER`, unless it is unset or names no command.
        private static func browserVariable(_ environment: [String: String]) -> String? {
            guard let value = environment["BROWSER"], value.contains(where: { $0 != ":" && $0 != " " }) else {
                return nil
            }
            return value
        }

        /// Starts the program if it exists on `PATH` (or is a path), and waits up to ``failureWindow`` for
        /// it to fail.
        ///
        /// - Returns: `nil` when it started, else why not (the program's name and the reason; never the URL).
        private static func launch(_ words: [String], path: String) async -> String? {
            let program = words[0]
            let candidates = program.contains("/") ? [program] : path.split(separator: ":").map { "\($0)/\(program)" }
            guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                let exists = candidates.contains { FileManager.default.fileExists(atPath: $0) }
                return "\(program): \(exists ? "not executable" : "not found")"
            }
            let process: ChildProcess
            do {
                process = try ChildProcess(executable, Array(words.dropFirst()), input: .inherit)
            } catch {
                return "\(program): cannot be run"
            }
            let exit = await withTaskGroup(of: Termination?.self) { group in
                group.addTask { try? await process.exit() }
                group.addTask {
                    try? await Task.sleep(for: failureWindow)
                    return nil
                }
                defer { group.cancelAll() }
                return await group.next() ?? nil
            }
            guard let exit, !exit.succeeded else { return nil }
            return "\(program) \(exit)"
        }
    }
#endif
