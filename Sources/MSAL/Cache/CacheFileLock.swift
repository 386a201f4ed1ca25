import AtomicFiles
import Foundation
import Locking

/// The cross-process lock msal-extensions uses, so MSAL Python, Azure CLI, MSAL.NET and this library
/// exclude each other: `<cache>.lockfile` created exclusively (`O_EXCL`) holding `"<pid> <program>"`,
/// plus `flock(LOCK_EX)` on it (what MSAL.NET and portalocker take), released by deleting the file.
///
/// A lock file whose process is gone (a crash) is stale: it is removed while holding its `flock`, and
/// only if the path still names the same file, so two processes can never both remove a fresh lock. So is an empty
/// one older than ``emptyLockLifetime``: its creator was killed between creating it and writing its name, which a
/// live process does within microseconds.
final class CacheFileLock: StorageLock {
    /// How old an empty lock file must be to count as a crashed creator's.
    static let emptyLockLifetime: TimeInterval = 10

    let path: String
    private let descriptor: Locked<Int32?>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = Locked(descriptor)
    }

    /// Waits for the lock, polling with growing pauses up to `timeout` in total.
    ///
    /// - Parameter sleep: how to pause between attempts (tests make it instant).
    /// - Throws: ``MSALError`` `cacheLocked` after `timeout`; `cacheUnavailable` when the lock file
    ///   cannot be created (a read-only folder).
    nonisolated(nonsending) static func acquire(
        path: String, timeout: Duration, sleep: @Sendable (Duration) async throws -> Void
    ) async throws -> CacheFileLock {
        var waited = Duration.zero
        var pause = Duration.milliseconds(5)
        while true {
            if let lock = try attempt(path) { return lock }
            if removeIfStale(path) { continue }
            guard waited < timeout else {
                let holder =
                    (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(
                        in: .whitespacesAndNewlines) ?? "?"
                throw MSALError.internal(
                    .cacheLocked,
                    "The token cache is locked by another process (\(holder.isEmpty ? "unknown" : holder)); gave up after \(timeout). If no other MSAL app is running, delete \(path)."
                )
            }
            try await sleep(pause)
            waited += pause
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    func release() {
        descriptor.withLock { descriptor in
            guard let fd = descriptor else { return }
            unlink(path)
            close(fd)
            descriptor = nil
        }
    }

    deinit { release() }

    private static func attempt(_ path: String) throws -> CacheFileLock? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST || errno == EINTR { return nil }
            let failure = POSIXError.current
            throw MSALError.internal(
                .cacheUnavailable, "The token cache's lock file \(path) cannot be created: \(failure.reason).",
                underlyingError: failure)
        }
        // We created the file, but a peer may have opened it first: one checking for staleness holds
        // the flock for a moment and leaves the file (it names no dead process); one that locks by flock
        // alone deletes it when done. Wait for the flock, then keep the lock only if the path still names
        // our file: walking away instead would leave an empty lock file nobody could prove stale.
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        guard namesSameFile(path, fd) else {
            close(fd)
            return nil
        }
        let owner = "\(getpid()) \(CommandLine.arguments.first ?? "swift")"
        _ = owner.withCString { write(fd, $0, strlen($0)) }
        return CacheFileLock(path: path, descriptor: fd)
    }

    /// Removes the lock file if the process named in it is gone, or it is empty and older than
    /// ``emptyLockLifetime``. Returns whether it did.
    private static func removeIfStale(_ path: String) -> Bool {
        // Not through a link, and without blocking on a FIFO someone named like the lock file.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return errno == ENOENT }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(fd, &buffer, buffer.count)
        if count == 0 {
            let age = Date().timeIntervalSince1970 - TimeInterval(info.modificationNanoseconds) / 1e9
            return age > emptyLockLifetime && namesSameFile(path, fd) && unlink(path) == 0
        }
        guard count > 0,
            let pid = Int32(String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ").first ?? ""),
            pid > 0, kill(pid, 0) != 0, errno == ESRCH
        else { return false }
        return namesSameFile(path, fd) && unlink(path) == 0
    }

    private static func namesSameFile(_ path: String, _ fd: Int32) -> Bool {
        var opened = stat()
        var current = stat()
        return fstat(fd, &opened) == 0 && stat(path, &current) == 0 && opened.st_ino == current.st_ino
            && opened.st_dev == current.st_dev
    }
}
