import AtomicFiles
import Foundation

/// The token cache's folder must be the user's own and writable by nobody else: another user who can write there can
/// replace the cache, plant a lock file (a FIFO that hangs every process), or read what it sets aside.
enum CacheFolderCheck {
    /// - Throws: ``MSALError`` `cacheUnavailable` naming the folder when it is not a directory, belongs to another
    ///   user, or is writable by its group or by others.
    static func verify(_ folder: String) throws {
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            let failure = POSIXError.current
            throw MSALError.internal(
                .cacheUnavailable, "The token cache's folder \(folder) cannot be examined: \(failure.reason).",
                underlyingError: failure)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw MSALError.internal(.cacheUnavailable, "The token cache's folder \(folder) is not a directory.")
        }
        guard info.st_uid == getuid() else {
            throw MSALError.internal(
                .cacheUnavailable, "The token cache's folder \(folder) belongs to another user; not using it.")
        }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw MSALError.internal(
                .cacheUnavailable,
                "The token cache's folder \(folder) is writable by others (mode \(String(info.st_mode & 0o777, radix: 8))); "
                    + "make it private (chmod 700) or choose another.")
        }
    }

    /// Opens `path` for reading without following a symbolic link or blocking on a FIFO, and checks that it is a
    /// regular file.
    ///
    /// - Returns: the descriptor, or `nil` when there is no such file.
    /// - Throws: ``MSALError`` `cacheUnavailable` for a link, a FIFO, a device or anything else not a regular file.
    static func openRegularFile(_ path: String, what: String) throws -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            let failure = POSIXError.current
            let reason = failure.code == .ELOOP ? "it is a symbolic link" : failure.reason
            throw MSALError.internal(
                .cacheUnavailable, "\(what) \(path) cannot be read: \(reason).", underlyingError: failure)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw MSALError.internal(.cacheUnavailable, "\(what) \(path) is not a regular file; not using it.")
        }
        return fd
    }
}
