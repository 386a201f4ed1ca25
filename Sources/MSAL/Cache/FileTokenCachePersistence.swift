import Foundation

/// Keeps the token cache in a file: created `0600` in a `0700` folder, written atomically (a temporary
/// file in the same folder, `fsync`, then `rename`), so a crash never leaves half a cache.
///
/// The default path is `${XDG_CACHE_HOME:-~/.cache}/msal/token_cache.json`; any path works, e.g.
/// Azure CLI's `~/.azure/msal_token_cache.json`. Cross-process locking comes with the persistent-cache work.
public struct FileTokenCachePersistence: TokenCachePersistence {
    public let url: URL

    /// - Parameter url: the cache file; the default location when `nil`.
    public init(url: URL? = nil) {
        self.url = url ?? Self.defaultURL(environment: ProcessInfo.processInfo.environment)
    }

    /// `${XDG_CACHE_HOME:-~/.cache}/msal/token_cache.json`.
    public static func defaultURL(environment: [String: String]) -> URL {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()).appendingPathComponent(".cache")
        return base.appendingPathComponent("msal/token_cache.json")
    }

    public func load() async throws -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw MSALError.internal(.cacheCorrupted, "The token cache \(url.path) cannot be read: \(error.localizedDescription)")
        }
    }

    public func save(_ data: Data) async throws {
        let folder = url.deletingLastPathComponent()
        do {
            if !FileManager.default.fileExists(atPath: folder.path) {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
            try Self.writeAtomically(data, to: url)
        } catch let error as MSALError {
            throw error
        } catch {
            throw MSALError.internal(.cacheCorrupted, "The token cache \(url.path) cannot be written: \(error.localizedDescription)")
        }
    }

    private static func writeAtomically(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: (any Error)?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        close(descriptor)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if let failure {
            unlink(temporary.path)
            throw failure
        }
    }
}
