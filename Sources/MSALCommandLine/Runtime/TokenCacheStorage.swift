import Foundation
import MSAL

/// Where `msal` keeps signed-in users' tokens, and `msal app token`'s: encrypted in the Secret Service when the desktop has one
/// (as msal-extensions does on Linux), else the 0600 file. `--cache-backend` (`MSAL_CACHE_BACKEND`,
/// `cache_backend`) chooses `keyring`, `file` or `auto` (the default); a cache file named with `--cache`,
/// `MSAL_TOKEN_CACHE` or `token_cache` is that file, so sharing it with MSAL Python and Azure CLI keeps working.
enum TokenCacheStorage: Sendable, Equatable {
    case file(URL)
    /// The Secret Service, with the signal file other processes watch.
    case keyring(signal: URL)

    /// What `--verbose` says of it.
    var description: String {
        switch self {
        case .file(let url): "the file \(url.filePath)"
        case .keyring(let signal): "the Secret Service (signal file \(signal.filePath))"
        }
    }

    /// Chooses the storage. With `auto` and no Secret Service, says once per cache folder (on standard error)
    /// that the file is used; with a keyring newly in use, moves the default file's tokens into it.
    ///
    /// - Throws: ``UsageError`` for an unknown backend, or `keyring` with a cache file named; ``MSALError``
    ///   `cacheUnavailable` for `keyring` when there is no Secret Service.
    static func choose(settings: Settings, environment: [String: String], console: Console) async throws
        -> TokenCacheStorage
    {
        let file = URL(fileURLWithPath: settings.cachePath.value)
        let backend = settings.cacheBackend
        guard ["file", "keyring", "auto"].contains(backend.value) else {
            throw UsageError("The cache backend must be file, keyring or auto, not \"\(backend.value)\".")
        }
        if settings.cachePath.origin != .defaultValue {
            guard backend.value != "keyring" || backend.origin == .defaultValue else {
                throw UsageError(
                    "The keyring backend keeps the cache in the Secret Service, and \(settings.cachePath.value) is a file: "
                        + "give --cache-backend keyring or a cache file, not both.")
            }
            return .file(file)
        }
        guard backend.value != "file" else { return .file(file) }
        #if os(Linux)
            let signal = file.deletingLastPathComponent().appendingFilePath("token_cache.signal")
            let unavailability = await SecretServiceTokenCachePersistence.unavailability(
                environment: environment, cache: signal)
        #else
            let unavailability: String? = "the Secret Service is a Linux desktop service"
        #endif
        if let reason = unavailability {
            guard backend.value == "auto" else {
                throw MSALError.internal(
                    .cacheUnavailable,
                    "No Secret Service to keep the token cache in (\(reason)); use --cache-backend file or auto.")
            }
            noticeOnce(
                keyringNotice(reason: reason, file: file), folder: file.deletingLastPathComponent(), console: console)
            return .file(file)
        }
        #if os(Linux)
            try await moveFileIntoKeyring(
                file, SecretServiceTokenCachePersistence(signalURL: signal, environment: environment), console: console)
            return .keyring(signal: signal)
        #else
            return .file(file)
        #endif
    }

    /// The first-run notice when `auto` finds no keyring: why, where the tokens go instead, and how to choose the
    /// file for good (which also ends the notice).
    static func keyringNotice(reason: String, file: URL) -> String {
        """
        msal: There is no keyring (Secret Service) here: \(reason).
        msal: Your tokens are saved in \(file.filePath), a file only you can read. To use that file without this \
        notice, run: msal config set cache_backend file
        """
    }

    /// Prints `notice` unless this cache folder's marker says it was printed, then leaves the marker.
    private static func noticeOnce(_ notice: String, folder: URL, console: Console) {
        let marker = folder.appendingFilePath("keyring_unavailable_noticed")
        guard !FileManager.default.fileExists(atPath: marker.filePath) else { return }
        console.err(notice)
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        FileManager.default.createFile(atPath: marker.filePath, contents: nil, attributes: [.posixPermissions: 0o600])
    }

    #if os(Linux)
        /// The tokens of a file cache kept before the keyring was in use move into the keyring (when it holds
        /// none yet), and the plaintext file goes.
        private static func moveFileIntoKeyring(
            _ file: URL, _ keyring: SecretServiceTokenCachePersistence, console: Console
        ) async throws {
            let persistence = FileTokenCachePersistence(url: file)
            guard let data = try await persistence.load(), !data.isEmpty else { return }
            let lock = try await keyring.lock()
            defer { lock?.release() }
            guard try await keyring.load() == nil else { return }
            try await keyring.save(data)
            try FileManager.default.removeItem(at: file)
            console.err("msal: moved the token cache from \(file.filePath) into the Secret Service.")
        }
    #endif
}
