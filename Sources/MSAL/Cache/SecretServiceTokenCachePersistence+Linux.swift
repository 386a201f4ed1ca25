#if os(Linux)
    import ChildProcesses
    import Foundation

    /// Keeps the token cache encrypted in the Secret Service (GNOME Keyring, KWallet) through `secret-tool`
    /// (Debian's `libsecret-tools`), like msal-extensions' `LibsecretPersistence`: the keyring holds the
    /// cache, and a signal file beside it holds no tokens, only a change counter whose modification time
    /// tells other processes to reload and whose `.lockfile` excludes them while one writes.
    ///
    /// `secret-tool` takes at most 8,192 bytes of secret on its standard input, and a cache is larger, so the
    /// cache is kept as base64 parts of a generation (`a` or `b`) and a manifest naming the generation, the
    /// number of parts and their SHA-256. A save writes the other generation's parts, then the manifest, then
    /// clears the old parts: a save interrupted at any point leaves the manifest and the parts it names intact.
    ///
    /// Linux only (the Secret Service is a freedesktop service). Needs a session bus with an unlocked keyring
    /// (a desktop session; not a bare SSH login); ``unavailability(environment:secretTool:cache:)`` tells.
    public struct SecretServiceTokenCachePersistence: TokenCachePersistence {
        /// The most base64 characters in one secret (`secret-tool` reads 8,192 bytes at most).
        static let partSize = 8000

        /// The signal file; also names the secret (attribute `cache`).
        public let signalURL: URL
        /// How long a change waits for another process's lock before it fails with `cacheLocked`.
        public var lockTimeout: Duration
        private let secretTool: String
        private let environment: [String: String]
        private let signal: FileTokenCachePersistence

        /// Keeps the cache in the Secret Service, under secrets named by `signalURL`.
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

        private func partAttributes(generation: String, index: Int) -> [String] {
            attributes + ["kind", "part", "generation", generation, "part", String(index)]
        }

        /// Reads the cache; `nil` when the keyring has none, or when its parts do not match the manifest (a
        /// keyring edited by hand: the cache starts empty rather than from bytes it cannot trust).
        ///
        /// - Throws: ``MSALError`` `cacheUnavailable` when the Secret Service cannot be asked.
        public func load() async throws -> Data? {
            guard let manifest = try await manifest() else { return nil }
            var text = ""
            for index in 0..<manifest.parts {
                guard let part = try await lookup(partAttributes(generation: manifest.generation, index: index)) else {
                    return nil
                }
                text += String(decoding: part, as: UTF8.self)
            }
            guard let data = Data(base64Encoded: text), SecretServiceManifest.digest(data) == manifest.digest else {
                return nil
            }
            return data
        }

        /// Stores the cache as a new generation and bumps the signal file's counter so other processes reload.
        ///
        /// - Throws: ``MSALError`` `cacheUnavailable` when the Secret Service refuses a secret or the signal file
        ///   cannot be written.
        public func save(_ data: Data) async throws {
            let previous = try await manifest()
            let generation = previous?.generation == "a" ? "b" : "a"
            let text = data.base64EncodedString()
            let parts = stride(from: 0, to: max(text.utf8.count, 1), by: Self.partSize).map { offset in
                let start = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
                let end = text.utf8.index(start, offsetBy: min(Self.partSize, text.utf8.count - offset))
                return Data(text.utf8[start..<end])
            }
            let label = "MSAL token cache (\(signalURL.lastPathComponent))"
            for (index, part) in parts.enumerated() {
                try await store(partAttributes(generation: generation, index: index), label: label, secret: part)
            }
            let manifest = SecretServiceManifest(
                generation: generation, parts: parts.count, digest: SecretServiceManifest.digest(data))
            try await store(attributes + ["kind", "manifest"], label: label, secret: Data(manifest.text.utf8))
            if let previous, previous.generation != generation {
                try await clear(attributes + ["kind", "part", "generation", previous.generation])
            }
            let counter = (try await signal.load()).flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
            try await signal.save(Data(String(counter + 1).utf8))
        }

        /// Removes every secret of this cache from the keyring (a sign-out of everyone).
        ///
        /// - Throws: ``MSALError`` `cacheUnavailable` when the Secret Service cannot be asked.
        public func remove() async throws {
            try await clear(attributes)
        }

        /// Whether a Secret Service answers here: a session bus, `secret-tool`, and an unlocked default
        /// collection that takes a secret (tried with a probe secret that is removed again, as msal-extensions'
        /// trial run does). Never prompts: a locked keyring counts as unavailable.
        ///
        /// - Parameters:
        ///   - environment: the environment `secret-tool` runs with.
        ///   - secretTool: the `secret-tool` executable.
        ///   - cache: a cache's signal file; when the keyring already holds that cache (it answered, and a locked
        ///     keyring answers nothing), it is available without the probe's three `secret-tool` runs.
        /// - Returns: `nil` when it is available, else why not (for the user).
        public static func unavailability(
            environment: [String: String] = ProcessInfo.processInfo.environment,
            secretTool: String = "/usr/bin/secret-tool", cache: URL? = nil
        ) async -> String? {
            let runtime = environment["XDG_RUNTIME_DIR"].map { URL(fileURLWithPath: $0).appendingPathComponent("bus") }
            let bus = environment["DBUS_SESSION_BUS_ADDRESS"].map { !$0.isEmpty } ?? false
            guard bus || runtime.map({ FileManager.default.fileExists(atPath: $0.path) }) == true else {
                return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
            }
            if let cache,
                (try? await SecretServiceTokenCachePersistence(
                    signalURL: cache, secretTool: secretTool, environment: environment
                ).manifest()) != nil
            {
                return nil
            }
            let probe = SecretServiceTokenCachePersistence(
                signalURL: URL(fileURLWithPath: "/swift-msal/probe"), secretTool: secretTool, environment: environment)
            do {
                let marker = Data("probe".utf8)
                try await probe.store(probe.attributes, label: "swift-msal probe", secret: marker)
                let read = try await probe.lookup(probe.attributes)
                try await probe.clear(probe.attributes)
                return read == marker ? nil : "the keyring did not give back what was stored"
            } catch let error as MSALError {
                return error.message
            } catch {
                return "\(error)"
            }
        }

        private func manifest() async throws -> SecretServiceManifest? {
            try await lookup(attributes + ["kind", "manifest"]).flatMap(SecretServiceManifest.init)
        }

        private func lookup(_ attributes: [String]) async throws -> Data? {
            let result = try await run(["lookup"] + attributes, input: nil)
            if result.termination == .exited(1) && result.standardError.isEmpty { return nil }
            guard result.termination.succeeded else { throw failure("read", result) }
            return result.standardOutput
        }

        private func store(_ attributes: [String], label: String, secret: Data) async throws {
            let result = try await run(["store", "--label=\(label)"] + attributes, input: secret)
            // secret-tool exits 0 after cutting a secret it found too long; its complaint on stderr says so.
            guard result.termination.succeeded, result.standardError.isEmpty else { throw failure("write", result) }
        }

        private func clear(_ attributes: [String]) async throws {
            let result = try await run(["clear"] + attributes, input: nil)
            guard result.termination.succeeded || (result.termination == .exited(1) && result.standardError.isEmpty)
            else {
                throw failure("write", result)
            }
        }

        /// The signal file's fingerprint (see ``FileTokenCachePersistence/version()``).
        public func version() async throws -> StorageVersion? { try await signal.version() }

        /// The signal file's lock (see ``FileTokenCachePersistence/lock()``).
        public func lock() async throws -> (any StorageLock)? { try await signal.lock() }

        /// Unreadable bytes stay in the keyring (overwritten by the next save); nothing is copied out.
        public func setAside(reason: String) async throws -> String? { nil }

        private func failure(_ action: String, _ result: ProgramOutput) -> MSALError {
            let reason = result.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
            return MSALError.internal(
                .cacheUnavailable,
                "The token cache cannot be \(action == "read" ? "read from" : "written to") the Secret Service: \(reason.isEmpty ? "secret-tool \(result.termination)" : reason)."
            )
        }

        /// Runs `secret-tool` to its end and collects what it printed.
        private func run(_ arguments: [String], input: Data?) async throws -> ProgramOutput {
            guard FileManager.default.isExecutableFile(atPath: secretTool) else {
                throw MSALError.internal(
                    .cacheUnavailable,
                    "\(secretTool) is missing; install libsecret-tools to keep the token cache in the Secret Service.")
            }
            do {
                return try await ChildProcess.run(
                    secretTool, arguments, environment: environment, input: input, error: .pipe)
            } catch {
                throw MSALError.internal(.cacheUnavailable, "\(secretTool) could not be run: \(error).")
            }
        }
    }
#endif
