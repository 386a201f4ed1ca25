import AtomicFiles
import Foundation

/// Keeps the token cache in a file, shareable with MSAL Python, Azure CLI and MSAL.NET:
///
/// - created `0600` in a `0700` folder and written atomically (a temporary file in the same folder,
///   `fsync`, `rename`), so a crash or a reader never sees half a cache;
/// - changed under msal-extensions' lock (`<path>.lockfile`, see `CacheFileLock`), waiting at most
///   `lockTimeout`;
/// - reloaded only when its inode, size or modification time changed;
/// - an unreadable file is renamed to `<path>.corrupt-<timestamp>` and reported to `onSetAside`.
///
/// The default path is `${XDG_CACHE_HOME:-~/.cache}/msal/token_cache.json`; any path works, e.g.
/// Azure CLI's `~/.azure/msal_token_cache.json`. The file is plaintext, protected by its permissions.
public struct FileTokenCachePersistence: TokenCachePersistence {
    /// The cache file.
    public let url: URL
    /// How long a change waits for another process's lock before it fails with `cacheLocked`.
    public var lockTimeout: Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let onSetAside: (@Sendable (_ copy: String, _ reason: String) -> Void)?

    /// Keeps the cache in the file at `url`.
    ///
    /// - Parameters:
    ///   - url: the cache file; the default location when `nil`.
    ///   - lockTimeout: how long to wait for another process's lock (msal-extensions waits 5 s).
    ///   - sleep: how to pause while waiting for the lock.
    ///   - onSetAside: told where an unreadable file was moved and why (the CLI warns with it).
    public init(
        url: URL? = nil, lockTimeout: Duration = .seconds(5),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        onSetAside: (@Sendable (_ copy: String, _ reason: String) -> Void)? = nil
    ) {
        self.url = url ?? Self.defaultURL(environment: ProcessInfo.processInfo.environment)
        self.lockTimeout = lockTimeout
        self.sleep = sleep
        self.onSetAside = onSetAside
    }

    /// `${XDG_CACHE_HOME:-~/.cache}/msal/token_cache.json`.
    public static func defaultURL(environment: [String: String]) -> URL {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory())
            .appendingFilePath(".cache")
        return base.appendingFilePath("msal/token_cache.json")
    }

    /// Reads the file; `nil` when there is none.
    ///
    /// - Throws: ``MSALError`` `cacheUnavailable` naming the path when the file exists but cannot be read.
    public nonisolated(nonsending) func load() async throws -> Data? {
        let folder = url.deletingLastPathComponent().filePath
        guard FileManager.default.fileExists(atPath: folder) else { return nil }
        try CacheFolderCheck.verify(folder)
        guard let fd = try CacheFolderCheck.openRegularFile(url.filePath, what: "The token cache") else { return nil }
        defer { close(fd) }
        do {
            return try FileContents.readToEnd(fd)
        } catch .unreadable(let failure) {
            throw MSALError.internal(
                .cacheUnavailable, "The token cache \(url.filePath) cannot be read: \(failure.reason).",
                underlyingError: failure)
        } catch .tooLarge {
            preconditionFailure("a read without a limit cannot be too large")
        }
    }

    /// Writes the file atomically, `0600`, creating its folder (`0700`) when missing.
    ///
    /// - Throws: ``MSALError`` `cacheUnavailable` naming the path when the file or its folder is
    ///   read-only or cannot be written.
    public nonisolated(nonsending) func save(_ data: Data) async throws {
        let folder = url.deletingLastPathComponent().filePath
        try createFolder(folder)
        var info = stat()
        if stat(url.filePath, &info) == 0, info.st_mode & S_IWUSR == 0 {
            throw MSALError.internal(.cacheUnavailable, "The token cache \(url.filePath) is read-only.")
        }
        if stat(folder, &info) == 0, info.st_mode & S_IWUSR == 0 {
            throw MSALError.internal(.cacheUnavailable, "The token cache's folder \(folder) is read-only.")
        }
        do {
            try AtomicFile.write(data, to: url.filePath)
        } catch {
            throw MSALError.internal(
                .cacheUnavailable, "The token cache \(url.filePath) cannot be written: \(error.localizedDescription).",
                underlyingError: error)
        }
    }

    /// Device, inode, size and modification time (ns) of the file; all zero when there is none.
    public nonisolated(nonsending) func version() async throws -> StorageVersion? {
        var info = stat()
        guard stat(url.filePath, &info) == 0 else { return StorageVersion([0, 0, 0, 0]) }
        return StorageVersion([
            Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), info.modificationNanoseconds,
        ])
    }

    /// Takes the `<path>.lockfile` lock that msal-extensions uses, creating the folder when missing.
    public nonisolated(nonsending) func lock() async throws -> (any StorageLock)? {
        try createFolder(url.deletingLastPathComponent().filePath)
        return try await CacheFileLock.acquire(path: url.filePath + ".lockfile", timeout: lockTimeout, sleep: sleep)
    }

    /// Renames the file to `<name>.corrupt-<UTC timestamp>` beside it.
    public nonisolated(nonsending) func setAside(reason: String) async throws -> String? {
        let stamp = Date().formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: false)
                .timeSeparator(.omitted).dateSeparator(.omitted).dateTimeSeparator(.standard))
        let copy = "\(url.filePath).corrupt-\(stamp)"
        guard rename(url.filePath, copy) == 0 else { return nil }
        onSetAside?(copy, reason)
        return copy
    }

    /// Deletes the `<name>.corrupt-<time>` copies ``setAside(reason:)`` left beside the file: they may hold refresh
    /// tokens, so they go when the user signs out.
    ///
    /// - Returns: how many were deleted.
    @discardableResult
    public func removeSetAsideCopies() -> Int {
        let folder = url.deletingLastPathComponent()
        let prefix = url.lastPathComponent + ".corrupt-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.filePath)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.reduce(0) { removed, name in
            unlink(folder.appendingFilePath(name).filePath) == 0 ? removed + 1 : removed
        }
    }

    /// Makes the folder (`0700`) when missing; an existing one must be the user's and private.
    private func createFolder(_ folder: String) throws {
        guard !FileManager.default.fileExists(atPath: folder) else { return try CacheFolderCheck.verify(folder) }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw MSALError.internal(
                .cacheUnavailable,
                "The token cache's folder \(folder) cannot be created: \(error.localizedDescription).",
                underlyingError: error)
        }
    }
}
