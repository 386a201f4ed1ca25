#if os(Linux)
    import Foundation

    /// Keeps the token cache encrypted in the Secret Service (GNOME Keyring, KWallet) through `secret-tool`
    /// (Debian's `libsecret-tools`), like msal-extensions' `LibsecretPersistence`: the keyring holds the
    /// cache, and a signal file beside it holds no tokens, only a change counter whose modification time
    /// tells other processes to reload and whose `.lockfile` excludes them while one writes.
    ///
    /// Linux only (the Secret Service is a freedesktop service). Needs a session bus with an unlocked keyring
    /// (a desktop session; not a bare SSH login). The plaintext ``FileTokenCachePersistence`` stays the Linux
    /// default, as it is for Azure CLI.
    public struct SecretServiceTokenCachePersistence: TokenCachePersistence {
        /// The signal file; also names the secret (attribute `cache`).
        public let signalURL: URL
        /// How long a change waits for another process's lock before it fails with `cacheLocked`.
        public var lockTimeout: Duration
        private let secretTool: String
        private let environment: [String: String]
        private let signal: FileTokenCachePersistence

        /// Keeps the cache in the Secret Service, under a secret named by `signalURL`.
        ///
        /// - Parameters:
        ///   - signalURL: the signal file, e.g. `~/.cache/msal/token_cache.signal`.
        ///   - lockTimeout: how long to wait for another process's lock (msal-extensions waits 5 s).
        ///   - secretTool: the `secret-tool` executable.
        ///   - environment: the environment `secret-tool` runs with (its `DBUS_SESSION_BUS_ADDRESS` picks the session).
        public init(
            signalURL: URL, lockTimeout: Duration = .seconds(5), secretTool: String = "/usr/bin/secret-tool",
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.signalURL = signalURL
            self.lockTimeout = lockTimeout
            self.secretTool = secretTool
            self.environment = environment
            signal = FileTokenCachePersistence(url: signalURL, lockTimeout: lockTimeout)
        }

        private var attributes: [String] { ["application", "swift-msal", "cache", signalURL.path] }

        /// Reads the secret; `nil` when the keyring has none.
        ///
        /// - Throws: ``MSALError`` `cacheUnavailable` when the Secret Service cannot be asked.
        public func load() async throws -> Data? {
            let result = try await run(["lookup"] + attributes, input: nil)
            if result.status == 1 && result.error.isEmpty { return nil }
            guard result.status == 0 else { throw failure("read", result) }
            return result.output
        }

        /// Stores the secret and bumps the signal file's counter so other processes reload.
        ///
        /// - Throws: ``MSALError`` `cacheUnavailable` when the Secret Service refuses the secret or the signal file cannot be written.
        public func save(_ data: Data) async throws {
            let result = try await run(
                ["store", "--label=MSAL token cache (\(signalURL.lastPathComponent))"] + attributes, input: data)
            guard result.status == 0 else { throw failure("write", result) }
            let counter = (try await signal.load()).flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
            try await signal.save(Data(String(counter + 1).utf8))
        }

        /// The signal file's fingerprint (see ``FileTokenCachePersistence/version()``).
        public func version() async throws -> StorageVersion? { try await signal.version() }

        /// The signal file's lock (see ``FileTokenCachePersistence/lock()``).
        public func lock() async throws -> (any StorageLock)? { try await signal.lock() }

        /// Unreadable bytes stay in the keyring (overwritten by the next save); nothing is copied out.
        public func setAside(reason: String) async throws -> String? { nil }

        private func failure(_ action: String, _ result: (status: Int32, output: Data, error: String)) -> MSALError {
            let reason = result.error.trimmingCharacters(in: .whitespacesAndNewlines)
            return MSALError.internal(
                .cacheUnavailable,
                "The token cache cannot be \(action == "read" ? "read from" : "written to") the Secret Service: \(reason.isEmpty ? "secret-tool exited \(result.status)" : reason)."
            )
        }

        /// Runs `secret-tool` on its own thread (it blocks) and collects what it printed.
        private func run(_ arguments: [String], input: Data?) async throws -> (
            status: Int32, output: Data, error: String
        ) {
            guard FileManager.default.isExecutableFile(atPath: secretTool) else {
                throw MSALError.internal(
                    .cacheUnavailable,
                    "\(secretTool) is missing; install libsecret-tools to keep the token cache in the Secret Service.")
            }
            let (tool, environment) = (secretTool, environment)
            return try await withCheckedThrowingContinuation { continuation in
                Thread {
                    continuation.resume(
                        with: Result {
                            let process = Process()
                            process.executableURL = URL(fileURLWithPath: tool)
                            process.arguments = arguments
                            process.environment = environment
                            let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
                            process.standardInput = stdin
                            process.standardOutput = stdout
                            process.standardError = stderr
                            let exited = DispatchSemaphore(value: 0)
                            process.terminationHandler = { _ in exited.signal() }
                            try process.run()
                            if let input { stdin.fileHandleForWriting.write(input) }
                            try stdin.fileHandleForWriting.close()
                            let errors = PipeReader(stderr.fileHandleForReading)
                            let output = stdout.fileHandleForReading.readDataToEndOfFile()
                            exited.wait()
                            return (process.terminationStatus, output, String(decoding: errors.wait(), as: UTF8.self))
                        })
                }.start()
            }
        }
    }

    /// Reads a pipe to its end on a thread of its own, so two pipes of one process never block each other.
    private final class PipeReader: @unchecked Sendable {
        // Invariant: `data` is written once, by the reading thread, before `done` is signalled, and read only after `wait()`.
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }.start()
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }
#endif
